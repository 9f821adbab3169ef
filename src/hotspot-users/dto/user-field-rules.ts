import { Transform } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { EMAIL_MAX_LENGTH, emailKey } from '../../common/validation/normalise.js';
import {
  HasCharacters,
  HasNoBidiControls,
  IsEmailAddress,
  IsIsoDateTimeWithZone,
  IsMacAddress,
  IsPhone,
  IsSafeText,
  USERNAME_PATTERN,
} from '../../common/validation/validators.js';
import { ROOM_MAX_LENGTH, VALID_FOR_MAX_SECONDS, VALID_FOR_MIN_SECONDS } from './field-schemas.js';

/*
 * The validators of a user's fields, once each: the create and update DTOs put a field's rules under
 * their own presence rule (required, optional, optional but not null) and OpenAPI schema, which differ.
 */

/** Decorators applied as if stacked on the property in this order (`stacked(A, B)` is `@A @B`), so messages keep their order. */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

/** The uniqueness key must fit its column too: lower-casing can lengthen an address (`İ`). */
const EMAIL_KEY = { of: emailKey, described: 'lower-cased' };
const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

export const NameRules = (): PropertyDecorator =>
  stacked(IsString(), IsSafeText(), HasNoBidiControls(), Transform(trim), HasCharacters(1, 255));

export const UsernameRules = (): PropertyDecorator =>
  stacked(
    IsString(),
    IsSafeText(),
    Matches(USERNAME_PATTERN, { message: 'username must be 1-64 characters of letters, digits and ._@+-' }),
  );

export const EmailRules = (): PropertyDecorator =>
  stacked(IsString(), IsSafeText(), HasCharacters(0, EMAIL_MAX_LENGTH, EMAIL_KEY), IsEmailAddress());

export const PhoneRules = (): PropertyDecorator => stacked(IsString(), IsSafeText(), IsPhone());

export const MacAddressRules = (): PropertyDecorator => stacked(IsString(), IsSafeText(), IsMacAddress());

export const ExpiresAtRules = (): PropertyDecorator => stacked(IsString(), IsIsoDateTimeWithZone());

/** A room as a desk writes it: trimmed, 1-32 characters, no control characters. */
export const RoomRules = (): PropertyDecorator =>
  stacked(IsString(), IsSafeText(), HasNoBidiControls(), Transform(trim), HasCharacters(1, ROOM_MAX_LENGTH));

export const ValidForRules = (): PropertyDecorator =>
  stacked(
    IsInt({ message: 'validFor must be a whole number of seconds' }),
    Min(VALID_FOR_MIN_SECONDS, { message: `validFor must be at least ${VALID_FOR_MIN_SECONDS} seconds` }),
    Max(VALID_FOR_MAX_SECONDS, { message: `validFor must be at most ${VALID_FOR_MAX_SECONDS} seconds` }),
  );

export const PlanIdRules = (): PropertyDecorator =>
  stacked(
    IsString({ message: 'planId must be a string' }),
    Matches(/^[0-9A-Za-z-]{1,36}$/, { message: 'planId must be the _id of a plan' }),
  );
