/** Sends the browser elsewhere (303 See Other); thrown by the guard and handlers, answered by ConsoleExceptionFilter. */
export class ConsoleRedirect extends Error {
  constructor(
    readonly location: string,
    readonly endSession = false,
  ) {
    super(`redirect to ${location}`);
  }
}

/** A console page that refuses the request, with its status and the message key it shows. */
export class ConsoleRefusal extends Error {
  constructor(
    readonly status: number,
    readonly messageKey: string,
    readonly values: Record<string, string | number> = {},
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(messageKey);
  }
}
