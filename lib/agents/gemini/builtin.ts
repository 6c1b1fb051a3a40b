import { GEMINI_DEFAULT_POLICIES } from "./defaults";
import { parsePolicyFile, type ParsedPolicyFile } from "./toml-policy";

/** Where the built-in files live inside Gemini's package (shown on the Rules page; never read at run time). */
export const BUILTIN_POLICY_DIR = "@google/gemini-cli-core/dist/src/policy/policies";

let cache: { name: string; parsed: ParsedPolicyFile }[] | undefined;

/** Gemini's built-in tier-1 policy files, parsed once. */
export function builtinPolicyFiles(): { name: string; parsed: ParsedPolicyFile }[] {
  cache ??= Object.entries(GEMINI_DEFAULT_POLICIES).map(([name, content]) => ({
    name,
    parsed: parsePolicyFile({ file: `${BUILTIN_POLICY_DIR}/${name}`, content, tier: "default", builtin: true }),
  }));
  return cache;
}
