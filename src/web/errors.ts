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

/**
 * A form sent a second time (its one-time token was used already): nothing is done again, and the
 * page says so, with a link to what the first POST did (`link`, a path of the surface's own, or null).
 */
export class FormAlreadySent extends Error {
  constructor(readonly link: string | null) {
    super('form already sent');
  }
}
