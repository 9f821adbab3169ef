import {
  registerDecorator,
  ValidateIf,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import {
  normaliseMac,
  PHONE_CHARACTERS,
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
  phoneDigitCount,
} from './normalise.js';
import { parseIsoDateTimeWithZone } from './iso-date-time.js';

export const VENUE_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9._@+-]{1,64}$/;

export const METADATA_MAX_BYTES = 16 * 1024;
export const METADATA_MAX_DEPTH = 8;
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function define(
  name: string,
  validate: (value: unknown, args: ValidationArguments) => boolean,
  defaultMessage: (args: ValidationArguments) => string,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: { validate, defaultMessage },
    });
  };
}

/** Optional, but `null` is not an accepted value (unlike class-validator's @IsOptional). */
export function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

export function IsMacAddress(options?: ValidationOptions): PropertyDecorator {
  return define(
    'isMacAddress',
    (value) => typeof value === 'string' && normaliseMac(value) !== null,
    (args) =>
      `${args.property} must be a MAC address like AA:BB:CC:DD:EE:FF, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff or aabbccddeeff`,
    options,
  );
}

export function IsPhone(options?: ValidationOptions): PropertyDecorator {
  return define(
    'isPhone',
    (value) => {
      if (typeof value !== 'string' || !PHONE_CHARACTERS.test(value)) return false;
      const digits = phoneDigitCount(value);
      return digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS;
    },
    (args) =>
      `${args.property} must be ${PHONE_MIN_DIGITS}-${PHONE_MAX_DIGITS} digits, optionally with a leading +, spaces, -, ( and )`,
    options,
  );
}

export function IsIsoDateTimeWithZone(options?: ValidationOptions): PropertyDecorator {
  return define(
    'isIsoDateTimeWithZone',
    (value) => typeof value === 'string' && parseIsoDateTimeWithZone(value) !== null,
    (args) => `${args.property} must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z`,
    options,
  );
}

/** Problems of a free-form metadata object, or null when it is acceptable. */
export function metadataProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'must be a JSON object';
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > METADATA_MAX_DEPTH) return `must not nest deeper than ${METADATA_MAX_DEPTH} levels`;
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) return `must not use the key ${key}`;
      stack.push({ node: (node as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > METADATA_MAX_BYTES) {
    return `must be at most ${METADATA_MAX_BYTES} bytes as JSON`;
  }
  return null;
}

export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return define(
    'isMetadata',
    (value) => metadataProblem(value) === null,
    (args) => `${args.property} ${metadataProblem(args.value)}`,
    options,
  );
}

/** For a field that may be present in no request body (e.g. loginMethod on PUT): any value fails. */
export function IsRefused(message: string): PropertyDecorator {
  return define('isRefused', () => false, () => message);
}

/** Fails when `refused(object)` holds: a field that other fields make unacceptable. */
export function IsRefusedWhen<T extends object>(refused: (object: T) => boolean, message: string): PropertyDecorator {
  return define('isRefusedWhen', (_value, args) => !refused(args.object as T), () => message);
}

/** A query parameter holding a plain decimal integer within bounds (`01` is 1; `1e1`, `1.5`, `` are not). */
export function IsIntegerString(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return define(
    'isIntegerString',
    (value) => {
      if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return false;
      const number = Number(value);
      return number >= min && number <= max;
    },
    (args) => `${args.property} must be an integer from ${min} to ${max}`,
    options,
  );
}

export const MAX_VENUES_PER_USER = 50;

/** A non-empty array of at most 50 venue ids; a bad element is reported by its path (`venueIds.2`). */
export function IsVenueIdList(options?: ValidationOptions): PropertyDecorator {
  const problem = (value: unknown, property: string): string | null => {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_VENUES_PER_USER) {
      return `${property} must be a non-empty array of at most ${MAX_VENUES_PER_USER} venue ids`;
    }
    const bad = value.findIndex((item) => typeof item !== 'string' || !VENUE_ID_PATTERN.test(item));
    return bad === -1 ? null : `${property}.${bad} must be 1-64 characters of A-Za-z0-9_.:-`;
  };
  return define(
    'isVenueIdList',
    (value, args) => problem(value, args.property) === null,
    (args) => problem(args.value, args.property) ?? '',
    options,
  );
}
