import { Transform } from 'class-transformer';
import {
  isEmail,
  registerDecorator,
  ValidateIf,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import {
  normaliseMac,
  PHONE_CHARACTERS,
  PHONE_MAX_DIGITS,
  PHONE_MAX_LENGTH,
  PHONE_MIN_DIGITS,
  phoneDigitCount,
} from './normalise.js';
import { LATEST_STORABLE_INSTANT, parseIsoDateTimeWithZone } from './iso-date-time.js';

export const VENUE_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9._@+-]{1,64}$/;

export const METADATA_MAX_BYTES = 16 * 1024;
const METADATA_MAX_DEPTH = 8;
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

/**
 * C0 control characters, DEL, and UTF-16 surrogates that are not half of a pair. A lone surrogate
 * cannot be encoded as UTF-8, so the database would store U+FFFD instead of what was sent.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_TEXT = /[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text holds no control character (U+0000–U+001F, U+007F) and no lone surrogate. */
export function isSafeText(value: string): boolean {
  return !UNSAFE_TEXT.test(value);
}

function safeTextMessage(property: string): string {
  return `${property} must not contain control characters or lone surrogates`;
}

/**
 * Bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069): invisible,
 * they reorder what a page shows around them ("Guest ‮gnp.exe" reads as "Guest exe.png").
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

export function hasBidiControls(value: string): boolean {
  return BIDI_CONTROLS.test(value);
}

/** Text shown to people as typed (a name, a room): no bidirectional controls; a non-string passes. */
export function HasNoBidiControls(options?: ValidationOptions): PropertyDecorator {
  return define(
    'hasNoBidiControls',
    (value) => typeof value !== 'string' || !hasBidiControls(value),
    (args) => `${args.property} must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069)`,
    options,
  );
}

/** Characters as MySQL's utf8mb4 columns count them: code points, not UTF-16 units. */
export function characterCount(value: string): number {
  return [...value].length;
}

/** Text every column can store as given; a non-string passes, for the type check to report. */
export function IsSafeText(options?: ValidationOptions): PropertyDecorator {
  return define(
    'isSafeText',
    (value) => typeof value !== 'string' || isSafeText(value),
    (args) => safeTextMessage(args.property),
    options,
  );
}

/** A uniqueness key stored beside the value, e.g. the lower-cased email (`İ` lower-cases to two characters). */
export interface NormalisedKey {
  of: (value: string) => string;
  /** How the message names the normalisation: `lower-cased`. */
  described: string;
}

/**
 * A length in characters: code points, as MySQL's columns count them (class-validator's Length
 * leaves variation selectors uncounted). With `key`, the normalised key must fit as well.
 */
export function HasCharacters(
  min: number,
  max: number,
  key?: NormalisedKey,
  options?: ValidationOptions,
): PropertyDecorator {
  const fits = (text: string) => {
    const count = characterCount(text);
    return count >= min && count <= max;
  };
  return define(
    'hasCharacters',
    (value) => typeof value !== 'string' || (fits(value) && (key === undefined || fits(key.of(value)))),
    (args) => {
      const range = min === 0 ? `at most ${max}` : `${min}-${max}`;
      return `${args.property} must be ${range} characters${key === undefined ? '' : `, also once ${key.described}`}`;
    },
    options,
  );
}

/**
 * class-validator's IsEmail, guarded: validator's isEmail throws on a lone surrogate, and accepts
 * control characters in a quoted local part.
 */
export function IsEmailAddress(options?: ValidationOptions): PropertyDecorator {
  return define(
    'isEmailAddress',
    (value) => typeof value === 'string' && isSafeText(value) && isEmail(value),
    (args) => `${args.property} must be a valid email address`,
    options,
  );
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
      if (typeof value !== 'string' || value.length > PHONE_MAX_LENGTH || !PHONE_CHARACTERS.test(value)) return false;
      const digits = phoneDigitCount(value);
      return digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS;
    },
    (args) =>
      `${args.property} must be ${PHONE_MIN_DIGITS}-${PHONE_MAX_DIGITS} digits, optionally with a leading +, ` +
      `spaces, -, ( and ), at most ${PHONE_MAX_LENGTH} characters in all`,
    options,
  );
}

/** An ISO 8601 date-time with a zone naming an instant the datetime columns can hold (up to year 9999 in UTC). */
export function IsIsoDateTimeWithZone(options?: ValidationOptions): PropertyDecorator {
  const problem = (value: unknown, property: string): string | null => {
    const instant = typeof value === 'string' ? parseIsoDateTimeWithZone(value) : null;
    if (instant === null) {
      return `${property} must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z`;
    }
    if (instant.getTime() > LATEST_STORABLE_INSTANT.getTime()) {
      return `${property} must be no later than ${LATEST_STORABLE_INSTANT.toISOString()}`;
    }
    return null;
  };
  return define(
    'isIsoDateTimeWithZone',
    (value, args) => problem(value, args.property) === null,
    (args) => problem(args.value, args.property) ?? '',
    options,
  );
}

/** Problems of a free-form metadata object, or null when it is acceptable. */
export function metadataProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'must be a JSON object';
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    // JSON.parse reads 1e400 as Infinity, which would be stored as null.
    if (typeof node === 'number' && !Number.isFinite(node)) {
      return 'must not hold numbers beyond ±1.7976931348623157e308';
    }
    // JSON.parse reads 9007199254740993 as …992, and it would come back in full digits, looking exact:
    // the fate of 64-bit ids sent as numbers. Larger values come back in exponent form, as doubles.
    if (
      typeof node === 'number' &&
      !Number.isSafeInteger(node) &&
      Number.isInteger(node) &&
      Math.abs(node) <= 2 ** 64
    ) {
      return 'must not hold integers beyond ±9007199254740991 (send them as strings)';
    }
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
  const validate = define(
    'isMetadata',
    (value) => metadataProblem(value) === null,
    (args) => `${args.property} ${metadataProblem(args.value)}`,
    options,
  );
  // class-transformer rebuilds a nested object key by key and skips, silently, keys named like the
  // members every object inherits (toString, valueOf…): the field keeps the value JSON.parse gave.
  const keepAsParsed = Transform(({ key, obj }: { key: string; obj: Record<string, unknown> }) => obj[key]);
  return (target: object, propertyName: string | symbol) => {
    keepAsParsed(target, propertyName);
    validate(target, propertyName);
  };
}

/** For a field that may be present in no request body (e.g. loginMethod on PUT): any value fails. */
export function IsRefused(message: string): PropertyDecorator {
  return define(
    'isRefused',
    () => false,
    () => message,
  );
}

/** Fails when `refused(object)` holds: a field that other fields make unacceptable. */
export function IsRefusedWhen<T extends object>(refused: (object: T) => boolean, message: string): PropertyDecorator {
  return define(
    'isRefusedWhen',
    (_value, args) => !refused(args.object as T),
    () => message,
  );
}

/** A query parameter holding a plain decimal integer within bounds (`01` is 1; `1e1`, `1.5`, `` are not). */
export function IsIntegerString(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return define(
    'isIntegerString',
    (value) => {
      // Leading zeros do not count towards the nine digits that bound the value's size.
      if (typeof value !== 'string' || !/^0*\d{1,9}$/.test(value)) return false;
      const number = Number(value);
      return number >= min && number <= max;
    },
    (args) => `${args.property} must be an integer from ${min} to ${max}`,
    options,
  );
}

export const MAX_VENUES_PER_USER = 50;

/** Between the messages of a list's failing elements, each its own `errors` entry (see toFieldErrors). */
export const ELEMENT_SEPARATOR = '\n';

/** A non-empty array of at most 50 venue ids; each bad element is reported by its path (`venueIds.2`). */
export function IsVenueIdList(options?: ValidationOptions): PropertyDecorator {
  const problem = (value: unknown, property: string): string | null => {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_VENUES_PER_USER) {
      return `${property} must be a non-empty array of at most ${MAX_VENUES_PER_USER} venue ids`;
    }
    const problems = value.flatMap((item: unknown, index) => {
      const path = `${property}.${index}`;
      if (typeof item !== 'string') return [`${path} must be a string`];
      if (VENUE_ID_PATTERN.test(item)) return [];
      return [isSafeText(item) ? `${path} must be 1-64 characters of A-Za-z0-9_.:-` : safeTextMessage(path)];
    });
    return problems.length === 0 ? null : problems.join(ELEMENT_SEPARATOR);
  };
  return define(
    'isVenueIdList',
    (value, args) => problem(value, args.property) === null,
    (args) => problem(args.value, args.property) ?? '',
    options,
  );
}
