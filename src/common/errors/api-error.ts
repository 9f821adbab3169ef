import { HttpException, HttpStatus } from '@nestjs/common';

export interface FieldError {
  field: string;
  message: string;
}

/** The v1 API's ErrorResponse (docs/api.md, "Answers and errors"). */
export interface ErrorBody {
  success: false;
  message: string;
  errors?: FieldError[];
}

export const ERROR_MESSAGES = {
  validation: 'Validation error',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  userNotFound: 'Kullanıcı bulunamadı',
  unauthJobNotFound: 'Unauth job not found',
  planNotFound: 'Plan not found',
  batchNotFound: 'Batch not found',
  notFound: 'Not Found',
  conflict: 'Conflict',
  expiredUserNotEditable: 'Expired users cannot be edited',
  payloadTooLarge: 'Payload Too Large',
  unsupportedMediaType: 'Unsupported Media Type',
  tooManyRequests: 'Too Many Requests',
  serviceUnavailable: 'Service Unavailable',
  internal: 'Internal server error',
} as const;

/** An error whose body is exactly the v1 API's ErrorResponse; the global filter writes it as it is. */
export class ApiError extends HttpException {
  constructor(status: number, message: string, errors?: FieldError[]) {
    const body: ErrorBody = { success: false, message };
    if (errors !== undefined) body.errors = errors;
    super(body, status);
  }

  get body(): ErrorBody {
    return this.getResponse() as ErrorBody;
  }

  static validation(errors: FieldError[]): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, ERROR_MESSAGES.validation, errors);
  }

  static unauthorized(): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, ERROR_MESSAGES.unauthorized);
  }

  static forbidden(errors?: FieldError[]): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, ERROR_MESSAGES.forbidden, errors);
  }

  static userNotFound(): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, ERROR_MESSAGES.userNotFound);
  }

  static unauthJobNotFound(): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, ERROR_MESSAGES.unauthJobNotFound);
  }

  static conflict(errors: FieldError[]): ApiError {
    return new ApiError(HttpStatus.CONFLICT, ERROR_MESSAGES.conflict, errors);
  }

  static expiredUserNotEditable(): ApiError {
    return new ApiError(HttpStatus.CONFLICT, ERROR_MESSAGES.expiredUserNotEditable);
  }
}
