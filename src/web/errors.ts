/** Sends the browser elsewhere (303 See Other): thrown by a web surface's guard or handlers, answered by its exception filter. */
export class PageRedirect extends Error {
  constructor(
    readonly location: string,
    readonly endSession = false,
  ) {
    super(`redirect to ${location}`);
  }
}

/** A page that refuses the request, with its status and the message key it shows. */
export class PageRefusal extends Error {
  constructor(
    readonly status: number,
    readonly messageKey: string,
    readonly values: Record<string, string | number> = {},
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(messageKey);
  }
}
