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

const STORED_DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?$/;

/**
 * A DateTimeColumn's value as plain SQL reads it: a Date from mysql2, the stored UTC text from
 * SQLite, read to the millisecond (six fractional digits are cut, not rounded).
 */
export function readDateTime<T extends Date | string | null>(value: T): T extends null ? null : Date;
export function readDateTime(value: Date | string | null): Date | null {
  if (value === null || value instanceof Date) return value;
  const parts = STORED_DATE_TIME.exec(value);
  if (parts === null) throw new Error(`not a stored date and time: ${JSON.stringify(value)}`);
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number);
  const milliseconds = Number((parts[7] ?? '0').padEnd(3, '0').slice(0, 3));
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds));
}
