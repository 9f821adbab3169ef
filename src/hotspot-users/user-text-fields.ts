import type { HotspotUserDto } from './dto/hotspot-user.response.js';
import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';

/**
 * The user's optional text fields that travel as they are from the request (after the DTO's
 * validation and normalising) to the row and back to the answer, null when unset: each is its own
 * column, named as the field in snake case. The create and update inputs, a new user, a PUT's
 * changes, the stored-row read and the answer are made from this list, so a field added here
 * needs only its column, its DTO properties and its answer property beside it (the type checker
 * names each one left out).
 */
export const USER_TEXT_FIELDS = ['email', 'phone', 'room'] as const satisfies ReadonlyArray<
  TextProperty<HotspotUserEntity> & TextProperty<HotspotUserDto>
>;

export type UserTextField = (typeof USER_TEXT_FIELDS)[number];

/** Each text field of the user, null when unset. */
export type UserTextValues = { [F in UserTextField]: string | null };

/** The properties of `T` that hold text or null. */
type TextProperty<T> = {
  [K in keyof T]: T[K] extends string | null ? (string | null extends T[K] ? K : never) : never;
}[keyof T];

/** No text field set (an account of a batch). */
export const NO_USER_TEXT: Readonly<UserTextValues> = Object.freeze(
  Object.fromEntries(USER_TEXT_FIELDS.map((field) => [field, null])) as UserTextValues,
);

/** The text fields of `source`; a field it leaves out is null. */
export function userTextOf(source: Partial<Record<UserTextField, string | null>>): UserTextValues {
  return Object.fromEntries(USER_TEXT_FIELDS.map((field) => [field, source[field] ?? null])) as UserTextValues;
}

/** The text fields `source` names, null included (a PUT's: `null` clears, absent keeps). */
export function sentUserText(source: Partial<Record<UserTextField, string | null>>): Partial<UserTextValues> {
  return Object.fromEntries(
    USER_TEXT_FIELDS.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]),
  );
}

/** Each text field after a PUT: what it sent, or what `current` holds for those it did not send. */
export function updatedUserText(current: UserTextValues, sent: Partial<UserTextValues>): UserTextValues {
  return Object.fromEntries(
    USER_TEXT_FIELDS.map((field) => [field, sent[field] === undefined ? current[field] : sent[field]]),
  ) as UserTextValues;
}

/** A field's column: its name in snake case (`roomNumber` → `room_number`). */
export function userTextColumn(field: UserTextField): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
