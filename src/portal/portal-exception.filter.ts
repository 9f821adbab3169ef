import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { isOverload } from '../common/load/overload.js';
import { PageRedirect, PageRefusal } from '../web/errors.js';
import { DEFAULT_LANGUAGE } from '../web/language.js';
import type { PortalRequest } from './portal-request.js';
import { PortalViews } from './portal-views.js';

const HTTP_REFUSALS: Record<number, string> = {
  400: 'error.invalid',
  403: 'error.forbidden',
  404: 'error.notFound',
  413: 'error.invalid',
  429: 'error.tooMany',
};

/** The portal answers in pages: redirects, refusals and errors without details (never a stack or SQL). */
@Catch()
export class PortalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Portal');

  constructor(private readonly views: PortalViews) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<PortalRequest>();
    const response = http.getResponse<Response>();
    if (exception instanceof PageRedirect) {
      response.redirect(303, exception.location);
      return;
    }
    let refusal: PageRefusal;
    if (exception instanceof PageRefusal) refusal = exception;
    else if (isOverload(exception)) refusal = new PageRefusal(503, 'error.busy', {}, 5);
    else if (exception instanceof HttpException && exception.getStatus() < 500) {
      refusal = new PageRefusal(exception.getStatus(), HTTP_REFUSALS[exception.getStatus()] ?? 'error.invalid');
    } else {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
      refusal = new PageRefusal(500, 'error.internal');
    }
    if (refusal.retryAfterSeconds !== null) response.setHeader('Retry-After', String(refusal.retryAfterSeconds));
    const venueId = (request.params as Record<string, string | undefined> | undefined)?.venueId ?? null;
    response
      .status(refusal.status)
      .type('html')
      .send(
        this.views.render('shell/error', request.portalLanguage ?? DEFAULT_LANGUAGE, {
          message: { key: refusal.messageKey, values: refusal.values },
          venueId,
          title: null,
          theme: null,
        }),
      );
  }
}
