import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError, type FieldError } from '../errors/api-error.js';

/** Flattens class-validator's tree into one entry per failing field, with dotted paths (`venueIds.0`). */
export function toFieldErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const field = parentPath ? `${parentPath}.${error.property}` : error.property;
    if (error.constraints) result.push(primaryError(field, error.constraints));
    if (error.children && error.children.length > 0) result.push(...toFieldErrors(error.children, field));
  }
  return result;
}

/**
 * One entry per field: the most basic rule it breaks. class-validator runs a property's decorators
 * bottom-up, so the last constraint reported is the top-most decorator (the type check, as DTOs are
 * written). A message that starts with a nested path of the field (`venueIds.2 must …`) names that path.
 */
function primaryError(field: string, constraints: Record<string, string>): FieldError {
  if (constraints.whitelistValidation !== undefined) return { field, message: `${field} is not an allowed field` };
  const messages = Object.values(constraints);
  const message = constraints.isDefined ?? messages[messages.length - 1];
  const nested = new RegExp(`^(${escapeRegExp(field)}\\.[\\w.]+) `).exec(message);
  return { field: nested ? nested[1] : field, message };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The global validation pipe: unknown fields are refused, not stripped, and types are never
 * converted implicitly (query numbers are parsed explicitly by their DTOs).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    // Off so that a DTO with no fields (NoQueryDto) still gets every parameter refused by the whitelist.
    forbidUnknownValues: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => ApiError.validation(toFieldErrors(errors)),
  });
}
