import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { PATH_FIELDS, TOOL_NAME } from "@/lib/policy/tools";
import { revealHidden } from "@/lib/text/reveal";

const text = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, `${field} is empty`);
const withField = (field: string) => z.looseObject({ [field]: text(field) });
/** File tools: at least one path field, and every path field given is a non-empty string. */
const withPath = z.looseObject({}).superRefine((input, ctx) => {
  const given = PATH_FIELDS.filter((f) => f in input);
  for (const f of given)
    if (typeof input[f] !== "string" || !(input[f] as string).trim())
      ctx.addIssue({ code: "custom", path: [f], message: `${f} must be a non-empty string` });
  if (given.length === 0) ctx.addIssue({ code: "custom", message: `needs a file path (${PATH_FIELDS[0]})` });
});

const SHELL = withField("command");
/** Known tools by lower-case name; unknown tools (MCP, newer tools) pass with any object input. */
const SCHEMAS: Record<string, z.ZodType> = {
  bash: SHELL,
  powershell: SHELL,
  shell: SHELL,
  shell_command: SHELL,
  monitor_command: SHELL,
  read: withPath,
  write: withPath,
  edit: withPath,
  multiedit: withPath,
  notebookedit: withPath,
  applypatch: withPath,
  read_file: withPath,
  write_file: withPath,
  edit_file: withPath,
  webfetch: withField("url"),
  web_fetch: withField("url"),
  websearch: withField("query"),
  web_search: withField("query"),
  eval: withField("expression"),
};

/** Checks a call at the agent API: the tool name's grammar and the known tool's required fields. Unknown fields are kept. */
export function validateToolCall(tool: string, input: Record<string, unknown>): void {
  if (!TOOL_NAME.test(tool))
    throw new ValidationError(
      `tool: "${revealHidden(tool.slice(0, 80))}" is not a tool name (letters, digits, _; or mcp__server__tool)`,
    );
  const schema = SCHEMAS[tool.toLowerCase()];
  if (!schema) return;
  const r = schema.safeParse(input);
  if (r.success) return;
  const flat = z.flattenError(r.error);
  const reasons = [...flat.formErrors, ...Object.values(flat.fieldErrors).flat()];
  throw new ValidationError(`input of ${tool}: ${reasons.join("; ")}`);
}
