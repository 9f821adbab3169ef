import type { NextFunction, Request, Response } from 'express';
import type { Logger as Pino } from 'pino';
import type { ApiRequest } from '../request-context.js';

/**
 * One JSON line per request once its response is sent: request id, method, path and route, status,
 * duration and the token's id and name. Headers, query strings and bodies are never logged, so
 * neither the Authorization header nor a password can reach the log. A request whose client went
 * away before the response was complete (a client timeout while the database hangs, say) is
 * logged too, when the connection closes, with `aborted: true` (and `status: null` if no status
 * had been sent yet). A 503 for load (shed, or its caller gone) is logged at warn, with `shed: true`.
 */
export function requestLogMiddleware(logger: Pino) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    // 'close' comes once per response, after 'finish' when it was sent whole, alone when the client went away.
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const status = aborted && !res.headersSent ? null : res.statusCode;
      // A request turned away for load (res.locals.shed) is a warning: the service did as designed.
      const failed = status !== null && status >= 500 && res.locals.shed !== true;
      const level = failed ? 'error' : status === null || status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const request = req as ApiRequest;
      const entry = {
        requestId: request.requestId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        route: req.route?.path ?? null,
        status,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        tokenId: request.token?.id ?? null,
        tokenName: request.token?.name ?? null,
        ...(aborted ? { aborted: true } : {}),
        ...(res.locals.shed === true ? { shed: true } : {}),
      };
      logger[level](entry, 'request');
    });
    next();
  };
}
