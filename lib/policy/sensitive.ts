import type { Dialect } from "./types";
import { basename } from "./shell/wrappers";

const SECRET = /^(\.env|\.env\..+|.+\.pem|.+\.key|id_rsa|id_ed25519|id_ecdsa|id_dsa|credentials|\.netrc)$/;
const PERSISTENCE = new Set([
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".zshrc",
  ".zprofile",
  ".zshenv",
  ".profile",
  ".gitconfig",
  ".gitmodules",
  ".mcp.json",
  ".envrc",
  ".npmrc",
]);
const CONTROL_DIRS = [".git", ".ssh", ".aws", ".gnupg", ".kube", ".vscode", ".idea", ".husky", ".devcontainer"];
const SETTINGS = /(^|\/)\.(commandcode|claude)\/settings(\.local)?\.json$|(^|\/)\.mevedel\/permissions\.el$/;

/** Why a write to `path` is sensitive, with the token an allow rule must name to pass it; null when it is not. */
export function sensitiveWrite(path: string): { reason: string; token: string } | null {
  const name = basename(path);
  if (SECRET.test(name)) return { reason: `secret material (${name})`, token: name };
  if (PERSISTENCE.has(name)) return { reason: `persistence vector (${name})`, token: name };
  if (SETTINGS.test(path)) return { reason: `agent settings (${name})`, token: name };
  const segs = path.split("/");
  for (const d of CONTROL_DIRS) if (segs.includes(d)) return { reason: `control surface (${d}/)`, token: d };
  const nb = path.indexOf("/node_modules/.bin/");
  if (nb !== -1 || path.startsWith("node_modules/.bin/"))
    return { reason: "control surface (node_modules/.bin/)", token: ".bin" };
  return null;
}

// mevedel's default protected paths: `.git` (and the dialect's `readOnlyPaths`) read-only, credential stores
// inaccessible.
const INACCESSIBLE = [".ssh", ".gnupg", ".aws", ".azure", ".kube"];

/** mevedel protection of a path: "read-only" (.git, the dialect's own), "inaccessible" (credentials) or null. */
export function mevedelProtection(
  path: string,
  dialect: Pick<Dialect, "readOnlyPaths">,
): "read-only" | "inaccessible" | null {
  const segs = path.split("/");
  if (INACCESSIBLE.some((d) => segs.includes(d)) || path.includes("/.config/gcloud")) return "inaccessible";
  if (segs.includes(".git") || dialect.readOnlyPaths.some((p) => path.includes(p))) return "read-only";
  return null;
}
