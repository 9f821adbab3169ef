import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { BATCHES_PATH, PLANS_PATH, UNAUTH_JOBS_PATH, USERS_PATH } from '../api-paths.js';
import { ApiError, ERROR_MESSAGES, type ErrorBody } from '../errors/api-error.js';
import { isDatabaseUnavailable, retryAfterSeconds } from '../errors/database-errors.js';
import { SHED_RETRY_AFTER_SECONDS, type Admission } from '../load/admission.js';
import { DeadlineExceededError } from '../load/deadline.js';
import { deadlineCallerOf, isOverload } from '../load/overload.js';
import { BODY_NOT_UTF8 } from '../middleware/body-shape.middleware.js';
import type { ApiRequest } from '../request-context.js';

const MESSAGE_BY_STATUS: Partial<Record<number, string>> = {
  [HttpStatus.BAD_REQUEST]: ERROR_MESSAGES.validation,
  [HttpStatus.UNAUTHORIZED]: ERROR_MESSAGES.unauthorized,
  [HttpStatus.FORBIDDEN]: ERROR_MESSAGES.forbidden,
  [HttpStatus.NOT_FOUND]: ERROR_MESSAGES.notFound,
  [HttpStatus.PAYLOAD_TOO_LARGE]: ERROR_MESSAGES.payloadTooLarge,
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: ERROR_MESSAGES.unsupportedMediaType,
  [HttpStatus.TOO_MANY_REQUESTS]: ERROR_MESSAGES.tooManyRequests,
  [HttpStatus.SERVICE_UNAVAILABLE]: ERROR_MESSAGES.serviceUnavailable,
};

interface Answer {
  status: number;
  body: ErrorBody;
  /** Seconds, for a 503 the client may simply repeat later. */
  retryAfter?: number;
}

/**
 * The one place that writes error responses: every error, whatever threw it, leaves as the v1 API's
 * ErrorResponse. Nothing internal (stack, SQL, driver text, parser messages) reaches the body.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  /** `admission` counts the requests answered 503 because their caller had stopped waiting. */
  constructor(private readonly admission: Admission | null = null) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<ApiRequest>();
    const response = http.getResponse<Response>();
    const answer = this.answerFor(exception, request);

    if (response.headersSent) {
      response.end();
      return;
    }
    if (answer.status === HttpStatus.UNAUTHORIZED) response.setHeader('WWW-Authenticate', 'Bearer');
    if (answer.retryAfter !== undefined) response.setHeader('Retry-After', String(answer.retryAfter));
    if (isOverload(exception)) response.locals.shed = true;
    response.status(answer.status).json(answer.body);
  }

  private answerFor(exception: unknown, request: ApiRequest): Answer {
    if (exception instanceof ApiError) return { status: exception.getStatus(), body: exception.body };
    if (exception instanceof HttpException) return this.answerForHttpException(exception, request);
    if (isOverload(exception)) {
      // "Not now": the caller stopped waiting, or the work class was full. Never a refusal of the request.
      if (exception instanceof DeadlineExceededError) {
        this.admission?.deadlineExpired(deadlineCallerOf(request.path), exception.stage);
      }
      return {
        ...plain(HttpStatus.SERVICE_UNAVAILABLE, ERROR_MESSAGES.serviceUnavailable),
        retryAfter: SHED_RETRY_AFTER_SECONDS,
      };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ msg: `Database unavailable: ${describe(exception)}`, requestId: request.requestId });
      return {
        ...plain(HttpStatus.SERVICE_UNAVAILABLE, ERROR_MESSAGES.serviceUnavailable),
        retryAfter: retryAfterSeconds(exception),
      };
    }
    this.logger.error({
      msg: `Unhandled error on ${request.method} ${request.route?.path ?? 'unmatched route'}`,
      requestId: request.requestId,
      stack: exception instanceof Error ? exception.stack : describe(exception),
    });
    return plain(HttpStatus.INTERNAL_SERVER_ERROR, ERROR_MESSAGES.internal);
  }

  private answerForHttpException(exception: HttpException, request: ApiRequest): Answer {
    const status = exception.getStatus();
    const cause = exception.cause as { type?: unknown } | undefined;
    // Raised by Express while decoding a path parameter such as `%ZZ`: no such resource, in the words
    // of the resource the path names.
    if (cause instanceof URIError) return plain(HttpStatus.NOT_FOUND, undecodableIdMessage(request.path));
    if (status === HttpStatus.BAD_REQUEST) {
      const message =
        cause?.type === 'entity.parse.failed'
          ? 'body is not valid JSON'
          : cause?.type === BODY_NOT_UTF8
            ? 'body is not valid UTF-8'
            : 'request is malformed';
      return {
        status,
        body: { success: false, message: ERROR_MESSAGES.validation, errors: [{ field: 'body', message }] },
      };
    }
    // Express answers a wrong method on a known path like an unknown path.
    if (status === HttpStatus.METHOD_NOT_ALLOWED) return plain(HttpStatus.NOT_FOUND, ERROR_MESSAGES.notFound);
    if (status >= 500) {
      this.logger.error({
        msg: `HTTP ${status} on ${request.method}`,
        requestId: request.requestId,
        stack: exception.stack,
      });
      return plain(
        status,
        status === HttpStatus.SERVICE_UNAVAILABLE ? ERROR_MESSAGES.serviceUnavailable : ERROR_MESSAGES.internal,
      );
    }
    return plain(status, MESSAGE_BY_STATUS[status] ?? STATUS_CODES[status] ?? 'Error');
  }
}

function plain(status: number, message: string): Answer {
  return { status, body: { success: false, message } };
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

const NOT_FOUND_BY_PATH: ReadonlyArray<[string, string]> = [
  [UNAUTH_JOBS_PATH, ERROR_MESSAGES.unauthJobNotFound],
  [USERS_PATH, ERROR_MESSAGES.userNotFound],
  [PLANS_PATH, ERROR_MESSAGES.planNotFound],
  [BATCHES_PATH, ERROR_MESSAGES.batchNotFound],
];

/** The not-found message of a path whose id could not be decoded; outside those resources, Not Found. */
export function undecodableIdMessage(path: string): string {
  const named = NOT_FOUND_BY_PATH.find(([prefix]) => path.startsWith(`/${prefix}/`));
  return named?.[1] ?? ERROR_MESSAGES.notFound;
}
