import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { checkTarget, parseTargetUrl, RefusedTargetError, type TargetPolicy } from "./ssrf";

export interface HttpResult {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  /** The first bytes of the response body (enough for the test button and the log). */
  body: string;
  latencyMs: number;
}

export type SendErrorKind = "refused" | "timeout" | "connection";
export class SendError extends Error {
  constructor(
    readonly kind: SendErrorKind,
    message: string,
    readonly latencyMs: number,
  ) {
    super(message);
  }
}

const BODY_LIMIT = 2048;

/**
 * One HTTP request under the SSRF policy: the host is resolved and checked first and the socket
 * connects to that checked address (custom lookup). Redirects are never followed: a 3xx is returned
 * as it is, and the caller treats it as a failure.
 */
export async function sendHttp(options: {
  url: string;
  method?: string;
  headers: Record<string, string>;
  body: string | Buffer;
  timeoutMs: number;
  policy: TargetPolicy;
}): Promise<HttpResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  let target: { address: string; family: 4 | 6 };
  try {
    url = parseTargetUrl(options.url);
    target = await checkTarget(url, options.policy);
  } catch (error) {
    if (error instanceof RefusedTargetError) throw new SendError("refused", error.message, elapsed());
    throw error;
  }
  const pinned: LookupFunction = (_hostname, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const body = typeof options.body === "string" ? Buffer.from(options.body) : options.body;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<HttpResult>((resolve, reject) => {
    let settled = false;
    const fail = (kind: SendErrorKind, message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new SendError(kind, message, elapsed()));
    };
    const req = client.request(
      url,
      {
        method: options.method ?? "POST",
        headers: {
          ...options.headers,
          "content-length": String(body.length),
          "user-agent": "permissions-cockpit-webhooks/1",
        },
        lookup: pinned,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < BODY_LIMIT) chunks.push(chunk);
          size += chunk.length;
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).subarray(0, BODY_LIMIT).toString("utf8"),
            latencyMs: elapsed(),
          });
        });
        res.on("error", (error) => fail("connection", error.message));
      },
    );
    const timer = setTimeout(() => {
      fail("timeout", `no answer within ${Math.round(options.timeoutMs / 1000)} s`);
      req.destroy();
    }, options.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) =>
      fail("connection", error.code ? `${error.code}: ${error.message}` : error.message),
    );
    req.end(body);
  });
}
