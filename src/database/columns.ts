import { Column, PrimaryColumn } from 'typeorm';

/** Identifiers are opaque, time-ordered strings (UUIDv7). */
export const ID_LENGTH = 36;

export function IdColumn(): PropertyDecorator {
  return PrimaryColumn({ type: 'varchar', length: ID_LENGTH });
}

export function ReferenceColumn(name: string): PropertyDecorator {
  return Column({ name, type: 'varchar', length: ID_LENGTH });
}

/** Millisecond precision everywhere: both engines default to whole seconds. Stored in UTC. */
export function DateTimeColumn(name: string, options: { nullable?: boolean } = {}): PropertyDecorator {
  return Column({ name, type: 'datetime', precision: 3, nullable: options.nullable ?? false });
}

/**
 * A DateTimeColumn's value in plain SQL, as both engines compare it with the stored one (the text
 * TypeORM stores on SQLite; MySQL reads it as UTC, the connection's time zone).
 */
export function dateTimeParameter(date: Date): string {
  return date.toISOString().slice(0, 23).replace('T', ' ');
}

/** A DateTimeColumn's value as plain SQL reads it: a Date from MySQL, the stored UTC text from SQLite. */
export function readDateTime(value: Date | string | null): Date | null {
  if (value === null || value instanceof Date) return value;
  return new Date(`${value.replace(' ', 'T')}Z`);
}
