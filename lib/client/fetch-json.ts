/** The server's error text for a failed request (every API error body is `{ "error": "…" }`). */
export async function readError(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: string };
    return body.error ?? `request failed (${res.status})`;
  } catch {
    return `request failed (${res.status})`;
  }
}

/** A same-origin JSON request; failures carry the server's reason instead of throwing. */
export async function send<T>(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ ok: true; data: T } | { ok: false; error: string }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) return { ok: false, error: await readError(res) };
  return { ok: true, data: (await res.json()) as T };
}
