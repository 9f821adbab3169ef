import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ApiError, type FieldError } from '../errors/api-error.js';
import { NoQueryDto } from '../validation/no-query.dto.js';
import { ELEMENT_SEPARATOR } from '../validation/validators.js';

/** Flattens class-validator's tree into one entry per failing field, with dotted paths (`venueIds.0`). */
export function toFieldErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const field = parentPath ? `${parentPath}.${error.property}` : error.property;
    if (error.constraints) result.push(...primaryErrors(field, error.constraints));
    if (error.children && error.children.length > 0) result.push(...toFieldErrors(error.children, field));
  }
  return result;
}

/**
 * One entry per field: the most basic rule it breaks. class-validator runs a property's decorators
 * bottom-up, so the last constraint reported is the top-most decorator (the type check, as DTOs are
 * written). A message that starts with a nested path of the field (`venueIds.2 must …`) names that
 * path; a list's decorator reports each failing element on a line of its own (see ELEMENT_SEPARATOR).
 */
function primaryErrors(field: string, constraints: Record<string, string>): FieldError[] {
  if (constraints.whitelistValidation !== undefined) return [notAllowed(field)];
  const messages = Object.values(constraints);
  const nested = new RegExp(`^(${escapeRegExp(field)}\\.[\\w.]+) `);
  return (constraints.isDefined ?? messages[messages.length - 1]).split(ELEMENT_SEPARATOR).map((message) => {
    const path = nested.exec(message);
    return { field: path ? path[1] : field, message };
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function notAllowed(field: string): FieldError {
  return { field, message: `${field} is not an allowed field` };
}

/**
 * The request's keys that name a member every object inherits (`toString`, `hasOwnProperty`,
 * `__proto__`…) or a method of the DTO. class-transformer skips such keys without a word when it
 * builds the DTO, so the whitelist never sees them: they are unknown fields all the same.
 */
export function inheritedMemberKeys(value: object, dto: abstract new () => unknown): string[] {
  const prototype = dto.prototype as object;
  return Object.keys(value).filter((key) => key in prototype);
}

/**
 * The global validation pipe: unknown fields are refused, not stripped, and types are never
 * converted implicitly (query numbers are parsed explicitly by their DTOs).
 */
class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      // Off so that a DTO with no fields still gets every parameter refused by the whitelist.
      forbidUnknownValues: false,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => ApiError.validation(toFieldErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dto = metadata.metatype;
    if (dto === undefined || value === null || typeof value !== 'object' || !this.toValidate(metadata)) {
      return super.transform(value, metadata);
    }
    // Every key is unknown: answered without building and validating an empty DTO.
    if (dto === NoQueryDto) {
      const keys = Object.keys(value);
      if (keys.length === 0) return new NoQueryDto();
      throw ApiError.validation(keys.map(notAllowed));
    }
    const inherited = inheritedMemberKeys(value, dto as abstract new () => unknown).map(notAllowed);
    if (inherited.length === 0) return super.transform(value, metadata);
    try {
      await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof ApiError && error.body.errors !== undefined) {
        throw ApiError.validation([...error.body.errors, ...inherited]);
      }
      throw error;
    }
    throw ApiError.validation(inherited);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe();
}
