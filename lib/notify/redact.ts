/**
 * Receivers often echo what they were sent (ntfy answers with the whole message, actions included). The delivery
 * log stores their answers, so everything that works as a credential is removed first: action tokens and the
 * URLs that carry them, Authorization headers and bearer/basic values, and the exact secrets of this request
 * (the endpoint's signing secret and ntfy access token).
 */
const PATTERNS: [RegExp, string][] = [
  // ntfy action URLs (plain or JSON-escaped slashes) and the tokens in them.
  [
    /https?:(?:\\?\/){2}[^\s"'<>]*?(?:\\?\/)api(?:\\?\/)v1(?:\\?\/)notify(?:\\?\/)actions(?:\\?\/)[^\s"'<>\\]*/gi,
    "[redacted action URL]",
  ],
  [/\bcna_[A-Za-z0-9_-]+/g, "cna_[redacted]"],
  // "Authorization": "…" in JSON, Authorization: … in echoed header dumps.
  [/("(?:proxy-)?authorization"\s*:\s*")(?:[^"\\]|\\.)*(")/gi, "$1[redacted]$2"],
  [/\b((?:proxy-)?authorization\s*[:=]\s*)[^\r\n,;"]+/gi, "$1[redacted]"],
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/gi, "$1 [redacted]"],
];

export function redactResponse(text: string, secrets: (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 8) out = out.split(secret).join("[redacted]");
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
