import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { SHED_RETRY_AFTER_SECONDS } from '../common/load/admission.js';
import { isOverload } from '../common/load/overload.js';
import { ConsoleFormTokensService, FormTokenTaken } from '../operators/console-form-tokens.service.js';
import { FormAlreadySent, PageRedirect, PageRefusal } from '../web/errors.js';
import { consoleReturnPath } from './console.rules.js';
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

/**
 * The console answers in pages, never the API's JSON: redirects, refusals, errors without details,
 * and "already done" for a form sent again (its token used: by an earlier POST, or by one that ran at
 * the same time and committed first), with a link to what that POST did.
 */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  constructor(
    private readonly views: ConsoleViews,
    private readonly denied: DeniedAccessAudit,
    private readonly formTokens: ConsoleFormTokensService,
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
    let sent = exception instanceof FormAlreadySent ? exception : null;
    if (exception instanceof FormTokenTaken) sent = new FormAlreadySent(await this.linkOfUsed(request));
    if (sent !== null) {
      const link = sent.link === null ? null : consoleReturnPath(sent.link);
      response
        .status(409)
        .type('html')
        .send(this.views.render('shell/done', language, { link }));
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

  /** The link of the POST that used this request's token first (committed by now); null when it cannot be read. */
  private async linkOfUsed(request: ConsoleRequest): Promise<string | null> {
    if (request.consoleFormToken === undefined) return null;
    try {
      const use = await this.formTokens.use(request.consoleFormToken);
      return use.used ? use.link : null;
    } catch (error) {
      this.logger.warn(`Could not read a used form token: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }
}
