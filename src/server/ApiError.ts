/** OpenAI's error types, as its API names them in `error.type`. */
export type ApiErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "rate_limit_error"
  | "server_error"
  | "not_found_error";

/** The body OpenAI's API answers errors with: `{"error": {"message", "type", "param", "code"}}`. */
export interface ApiErrorBody {
  error: { message: string; type: ApiErrorType; param: string | null; code: string | null };
}

/** A request the server answers with an HTTP error in OpenAI's shape; never a crash. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: ApiErrorType = "invalid_request_error",
    readonly param: string | null = null,
    readonly code: string | null = null,
    /** Extra response headers (`Retry-After` for 429/503). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  body(): ApiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** A 400 naming the offending parameter (`messages[2].content`). */
export function badRequest(message: string, param: string | null = null, code: string | null = null): ApiError {
  return new ApiError(400, message, "invalid_request_error", param, code);
}
