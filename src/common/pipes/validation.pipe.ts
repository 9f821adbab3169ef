import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError, type FieldError } from '../errors/api-error.js';

/** Flattens class-validator's tree into one entry per failing field, with dotted paths (`venueIds.0`). */
export function toFieldErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const field = parentPath ? `${parentPath}.${error.property}` : error.property;
    if (error.constraints) {
      const messages = Object.entries(error.constraints);
      const unknown = messages.find(([name]) => name === 'whitelistValidation');
      // One message per field: the first failing rule is the one a caller must fix first.
      const [, message] = unknown ?? messages[0];
      result.push({ field, message: unknown ? `${field} is not an allowed field` : message });
    }
    if (error.children && error.children.length > 0) result.push(...toFieldErrors(error.children, field));
  }
  return result;
}

/**
 * The global validation pipe: unknown fields are refused, not stripped, and types are never
 * converted implicitly (query numbers are parsed explicitly by their DTOs).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    stopAtFirstError: true,
    exceptionFactory: (errors) => ApiError.validation(toFieldErrors(errors)),
  });
}
