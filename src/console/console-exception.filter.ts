import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { SHED_RETRY_AFTER_SECONDS } from '../common/load/admission.js';
import { isOverload } from '../common/load/overload.js';
import { PageRedirect, PageRefusal } from '../web/errors.js';
import type { ConsoleRequest } from './console-request.js';
import { ConsoleViews } from './console-views.js';
import { DeniedAccessAudit } from './denied-access-audit.js';
import { DEFAULT_LANGUAGE } from '../web/language.js';
import { clearSessionCookie } from './session-cookie.js';

/** The page a refusal of the services (the v1 API's errors, which the console's pages share) shows. */
const HTTP_REFUSALS: Record<number, string> = {
  400: 'error.invalid',
  403: 'error.forbidden',
  404: 'error.notFound',
  409: 'error.conflict',
  412: 'error.changed',
  413: 'error.invalid',
  429: 'error.tooMany',
};

/** The console answers in pages, never the API's JSON: redirects, refusals, and errors without details. */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  constructor(
    private readonly views: ConsoleViews,
    private readonly denied: DeniedAccessAudit,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const request = http.getRequest<ConsoleRequest>();
    const response = http.getResponse<Response>();
    const language = request.consoleLanguage ?? DEFAULT_LANGUAGE;
    if (exception instanceof PageRedirect) {
      if (exception.endSession) clearSessionCookie(request, response);
      response.redirect(303, exception.location);
      return;
    }
    let refusal: PageRefusal;
    if (exception instanceof PageRefusal) refusal = exception;
    else if (isOverload(exception)) refusal = new PageRefusal(503, 'error.busy', {}, SHED_RETRY_AFTER_SECONDS);
    else if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus();
      refusal = new PageRefusal(status, HTTP_REFUSALS[status] ?? 'error.invalid');
    } else {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
      refusal = new PageRefusal(500, 'error.internal');
    }
    if (refusal.status === 403) await this.denied.record(request);
    if (refusal.retryAfterSeconds !== null) response.setHeader('Retry-After', String(refusal.retryAfterSeconds));
    response
      .status(refusal.status)
      .type('html')
      .send(
        this.views.render('shell/error', language, { message: { key: refusal.messageKey, values: refusal.values } }),
      );
  }
}
