/**
 * Makes a tool input safe to keep forever: secret-looking values are masked, file contents and
 * patch bodies are replaced by their length. Pure; never throws.
 */
export const MASK = "[masked]";

/** Keys whose value is a credential whatever it looks like. */
const SECRET_KEY =
  /(pass(word|wd|phrase)?|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|auth(orization)?|cookie|credential|bearer)$/i;
/** Keys that carry file contents or patch bodies. */
const CONTENT_KEY = /^(content|contents|new_string|old_string|new_source|patch|diff|edits|file_text|body|data)$/i;
/** Values that look like credentials wherever they appear inside a string. */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/(authorization\s*[:=]\s*)(bearer|basic|token)?\s*[^\s"']+/gi, `$1$2 ${MASK}`],
  [/\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${MASK}`],
  [/\b(cp[lscan]a?_|sk-|sk_live_|sk_test_|ghp_|gho_|ghs_|github_pat_|xox[abprs]-|glpat-)[A-Za-z0-9_-]{8,}/g, MASK],
  [/\bAKIA[0-9A-Z]{16}\b/g, MASK],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, MASK],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, MASK],
  // NAME=value where NAME says it is secret (shell exports, .env lines, URLs' query strings).
  [
    /\b([A-Za-z_][A-Za-z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)[A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s&;]+)/gi,
    `$1=${MASK}`,
  ],
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, `$1${MASK}@`],
];

export function maskString(value: string): string {
  let out = value.replace(/\u0000/g, "");
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

const isEnvPath = (v: unknown) => typeof v === "string" && /(^|[/\\])\.env($|[.\w-]*$)/.test(v);

function clean(value: unknown, key: string | null, depth: number, envFile: boolean): unknown {
  if (depth > 20) return "[too deep]";
  if (key !== null && SECRET_KEY.test(key) && value !== null && value !== "" && typeof value !== "boolean") return MASK;
  if (key !== null && CONTENT_KEY.test(key) && value !== null && value !== undefined) {
    const size = typeof value === "string" ? value.length : (JSON.stringify(value)?.length ?? 0);
    return `[omitted: ${size} characters]`;
  }
  if (typeof value === "string") return envFile && key !== null && !/path|file/i.test(key) ? MASK : maskString(value);
  if (Array.isArray(value)) return value.slice(0, 200).map((v) => clean(v, null, depth + 1, envFile));
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    // A tool that touches a .env file: keep the path, mask every other string.
    const env = envFile || entries.some(([k, v]) => /path|file/i.test(k) && isEnvPath(v));
    return Object.fromEntries(entries.slice(0, 200).map(([k, v]) => [maskString(k), clean(v, k, depth + 1, env)]));
  }
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}

/** The input as it may be stored in the audit log; strings longer than 4,000 characters are cut with a note. */
export function sanitizeInput(input: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!input) return null;
  const cleaned = clean(input, null, 0, false) as Record<string, unknown>;
  return JSON.parse(
    JSON.stringify(cleaned, (_k, v) =>
      typeof v === "string" && v.length > 4000 ? `${v.slice(0, 4000)}… [${v.length} characters]` : v,
    ),
  );
}

/** Detail objects get the same masking (they never carry file bodies by construction). */
export function sanitizeDetail(detail: Record<string, unknown>): Record<string, unknown> {
  return sanitizeInput(detail) ?? {};
}
