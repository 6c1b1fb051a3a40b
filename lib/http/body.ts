/** Request bodies are read by us, counted byte by byte, so nobody can make the server buffer 300 MB. */

/** People's routes (login, settings, rules): small JSON forms. */
export const PEOPLE_BODY_LIMIT = 64 * 1024;
/** Agent routes: card inputs carry whole files an agent wants to write. */
export const AGENT_BODY_LIMIT = 1024 * 1024;
/** Deeper JSON is refused before parsing: nothing legitimate nests this far. */
export const MAX_JSON_DEPTH = 64;

export type BodyResult = { ok: true; text: string } | { ok: false; status: 400 | 413; reason: string };

const tooLarge = (limit: number): BodyResult => ({
  ok: false,
  status: 413,
  reason: `the body is larger than ${describeBytes(limit)}`,
});

export function describeBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/**
 * The body as text, or 413 as soon as Content-Length or the bytes received pass `limit`
 * (the rest of the stream is cancelled, never buffered).
 */
export async function readBodyText(req: Request, limit: number): Promise<BodyResult> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) return tooLarge(limit);
  if (!req.body) return { ok: true, text: "" };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return tooLarge(limit);
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, status: 400, reason: "the body could not be read" };
  } finally {
    reader.releaseLock();
  }
  return { ok: true, text: Buffer.concat(chunks, total).toString("utf8") };
}

/** True when arrays/objects in `text` nest deeper than `max` (strings are skipped, escapes honoured). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Read and parse a JSON body within `limit`; the error says why (413 too large, 400 not JSON or too deep). */
export async function readJsonBody(
  req: Request,
  limit: number,
): Promise<{ ok: true; value: unknown } | { ok: false; status: 400 | 413; reason: string }> {
  const body = await readBodyText(req, limit);
  if (!body.ok) return body;
  if (jsonTooDeep(body.text))
    return { ok: false, status: 400, reason: `the body nests deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(body.text) };
  } catch {
    return { ok: false, status: 400, reason: "the body is not valid JSON" };
  }
}
