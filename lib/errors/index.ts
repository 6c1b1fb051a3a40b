/** Typed errors thrown by verbs; mapped to HTTP status (lib/http) and CLI exit codes (lib/cli) in one place each. */
export class AppError extends Error {
  readonly status: number = 500;
  readonly code: string = "internal";
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

/** Errors from other layers (e.g. lib/stores) mapped by class name, so those layers stay free of HTTP. */
const statusByName: Record<string, number> = {
  ConflictError: 409,
  StoreLockedError: 409,
  InvalidInputError: 400,
  NotFoundError: 404,
  InvalidStoreError: 422,
  SymlinkRefusedError: 409,
  NarrowingRefusedError: 422,
  ReadOnlyStoreError: 403,
  ForbiddenError: 403,
  ValidationError: 400,
  GoneError: 410,
};

export function statusOf(error: unknown): number {
  if (error instanceof AppError) return error.status;
  if (error instanceof Error) {
    const byStatus = (error as { status?: unknown }).status;
    if (typeof byStatus === "number" && byStatus >= 400 && byStatus < 600) return byStatus;
    return statusByName[error.name] ?? statusByName[error.constructor.name] ?? 500;
  }
  return 500;
}
