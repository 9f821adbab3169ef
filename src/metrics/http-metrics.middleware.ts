import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { HotspotMetrics } from './hotspot-metrics.js';
import { methodLabel, refusedByRateLimiter, routeLabel, statusClass } from './metrics.rules.js';

/**
 * Times every request of the service's HTTP server and counts it, when its answer is finished, by
 * method, route template (never the path: ids stay out of the labels) and status class; counts the
 * rate limiter's 429s. One histogram observation per request, in memory.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: HotspotMetrics) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const route = routeLabel(request.route as { path?: unknown } | undefined, request.baseUrl);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = response.statusCode;
      this.metrics.httpDuration.observe(
        { method: methodLabel(request.method), route, status_class: statusClass(status) },
        seconds,
      );
      if (refusedByRateLimiter(status, response.getHeader('x-ratelimit-limit')))
        this.metrics.rateLimited.inc({ route });
    });
    next();
  }
}
