/**
 * The one error hierarchy: every typed error a verb or a layer below it (lib/stores) throws carries its
 * HTTP status, a stable code, and its CLI exit code (2: bad input, shown with the verb's usage; 1: a
 * refusal, one line). lib/http and lib/cli map errors by these properties, never by class names.
 */
export class AppError extends Error {
  readonly status: number = 500;
  readonly code: string = "internal";
  readonly exitCode: number = 1;
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class ValidationError extends AppError {
  override readonly status = 400;
  override readonly code = "invalid_request";
  override readonly exitCode = 2;
}
export class ForbiddenError extends AppError {
  override readonly status = 403;
  override readonly code = "forbidden";
}
export class NotFoundError extends AppError {
  override readonly status = 404;
  override readonly code = "not_found";
}
export class ConflictError extends AppError {
  override readonly status = 409;
  override readonly code = "conflict";
}
export class GoneError extends AppError {
  override readonly status = 410;
  override readonly code = "gone";
}
export class UnprocessableError extends AppError {
  override readonly status = 422;
  override readonly code = "unprocessable";
}
/** Too many requests from one caller; `retryAfterSeconds` becomes the `Retry-After` header. */
export class TooManyRequestsError extends AppError {
  override readonly status = 429;
  override readonly code = "too_many_requests";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, { retryAfter: retryAfterSeconds });
  }
}

/** HTTP status of any thrown value: an AppError's own status, else 500. */
export function statusOf(error: unknown): number {
  return error instanceof AppError ? error.status : 500;
}

/** CLI exit code of a typed error (2 = usage, 1 = refusal); null for anything untyped (a crash). */
export function exitCodeOf(error: unknown): number | null {
  return error instanceof AppError ? error.exitCode : null;
}
