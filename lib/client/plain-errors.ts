/**
 * Sign-in and passkey failures in plain words. Browsers report WebAuthn failures as DOMException names and
 * spec links ("NotAllowedError: The operation either timed out or was not allowed. See: https://…"); a
 * malformed request comes back as schema text. People get what happened and what to do.
 */
const RULES: [RegExp, string][] = [
  [
    /NotAllowedError|timed out or was not allowed|not allowed by the user agent/i,
    "The passkey prompt was closed or timed out. Try again when you are ready.",
  ],
  [/AbortError|was aborted|cancel/i, "The passkey prompt was cancelled. Try again when you are ready."],
  [/InvalidStateError|already registered|previously registered/i, "This passkey is already registered here."],
  [
    /SecurityError|relying party|rp ?id|invalid domain|not a valid domain/i,
    "Passkeys do not work at this address. Open the cockpit at its usual address (localhost or its https name).",
  ],
  [/NotSupportedError|not supported|PublicKeyCredential is not/i, "This browser cannot use passkeys here."],
  [/no passkey|unknown credential|credential .*not found/i, "That passkey is not registered with this cockpit."],
  [
    /^Invalid input|expected .* received|invalid_type|too_small|too_big|^Required$/i,
    "The request was not in the expected form. Reload the page and try again.",
  ],
];

export function plainError(message: string, status?: number): string {
  if (status === 0) return "The cockpit could not be reached. Check that it is running and that you are online.";
  if (status === 429) return "Too many attempts. Wait a minute and try again.";
  for (const [re, text] of RULES) if (re.test(message)) return text;
  return message.replace(/\s*See:? https?:\/\/\S+/g, "").trim();
}
