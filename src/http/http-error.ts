/**
 * The one error type of the HTTP layer. It carries its status; error-handler.ts maps it (and
 * everything else) to a JSON `{"message": ...}` answer, the text Steadybit shows its users.
 */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 413 | 415 | 417 | 500 | 501 | 503,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
