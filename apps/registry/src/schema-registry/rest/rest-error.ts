/**
 * A refusal of the REST protocol itself (no such route, a body that is not JSON, too large, a
 * credential missing): answered with its HTTP status and Confluent's body, `{error_code, message}`.
 */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
    readonly headers: Record<string, string | string[]> = {},
  ) {
    super(message);
    this.name = "RestError";
  }
}
