import { AppError, ForbiddenError, UnavailableError, ValidationError } from "@/lib/errors";
import { loadEnv } from "@/lib/config/env";
import { readLocalCredential } from "@/lib/auth/local-credential";

/**
 * The credential to call the server with: `COCKPIT_URL` + `COCKPIT_CLI_TOKEN` when the owner hands them over
 * explicitly (the cockpit runs as its own OS user and its data folder is unreadable here, docs/deploy.md), else the
 * one `cockpit start` left in the data folder.
 */
export function serverCredential(
  vars: Record<string, string | undefined> = process.env,
  dataDir = loadEnv().dataDir,
): { url: string; token: string } | null {
  const url = vars.COCKPIT_URL?.trim();
  const token = vars.COCKPIT_CLI_TOKEN?.trim();
  if (url || token) {
    if (!url || !token) throw new ValidationError("set both COCKPIT_URL and COCKPIT_CLI_TOKEN, or neither");
    if (!token.startsWith("cpc_"))
      throw new ValidationError("COCKPIT_CLI_TOKEN is not a cockpit CLI credential (cpc_…)");
    try {
      new URL(url);
    } catch {
      throw new ValidationError(`COCKPIT_URL is not a URL: ${url}`);
    }
    return { url, token };
  }
  return readLocalCredential(dataDir);
}

/** Calls the running server's API as the local owner (see `serverCredential`). */
export async function callServer<T = unknown>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const env = loadEnv();
  const credential = serverCredential(process.env, env.dataDir);
  if (!credential)
    throw new UnavailableError(
      `the cockpit is not running (no credential in ${env.dataDir}); start it with \`npm start\``,
    );
  let res: Response;
  try {
    res = await fetch(new URL(apiPath, credential.url), {
      method,
      headers: {
        authorization: `Bearer ${credential.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new UnavailableError(`the cockpit at ${credential.url} is not reachable; start it with \`npm start\``);
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const reason = (parsed as { error?: string } | undefined)?.error ?? `HTTP ${res.status}`;
    if (res.status === 401)
      throw new ForbiddenError(
        `the running cockpit did not accept the local credential (was it restarted by another command?): ${reason}`,
      );
    throw serverRefusal(res.status, parsed, reason);
  }
  return parsed as T;
}

/** The error codes a cockpit server sends (`{ error, code }`), as this CLI's own errors; by status when there is none. */
const CODE_OF_STATUS: Record<number, string> = {
  400: "invalid_request",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  410: "gone",
  422: "unprocessable",
  429: "too_many_requests",
  503: "unavailable",
};

/** A refusal the server sent back: its reason and its `code`, so lib/cli/exit-codes.ts maps it like a local one. */
class ServerRefusal extends AppError {
  override readonly status: number;
  override readonly code: string;
  constructor(message: string, status: number, code: string, details?: unknown) {
    super(message, details);
    this.status = status;
    this.code = code;
  }
}

/** The AppError for a server's error answer (`{ error, code, details }`), keeping its code. */
export function serverRefusal(status: number, body: unknown, message: string): AppError {
  const b = (body ?? {}) as { code?: unknown; details?: unknown };
  const code =
    typeof b.code === "string" && /^[a-z_]{1,40}$/.test(b.code) ? b.code : (CODE_OF_STATUS[status] ?? "internal");
  return new ServerRefusal(message, status, code, b.details);
}
