import type { NextFunction, Request, Response } from 'express';
import type { Logger as Pino } from 'pino';
import type { ApiRequest } from '../request-context.js';

/**
 * One JSON line per request once its response is sent: request id, method, path and route, status,
 * duration and the token's id and name. Headers, query strings and bodies are never logged, so
 * neither the Authorization header nor a password can reach the log.
 */
export function requestLogMiddleware(logger: Pino) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const request = req as ApiRequest;
      const status = res.statusCode;
      const entry = {
        requestId: request.requestId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        route: req.route?.path ?? null,
        status,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        tokenId: request.token?.id ?? null,
        tokenName: request.token?.name ?? null,
      };
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      logger[level](entry, 'request');
    });
    next();
  };
}
