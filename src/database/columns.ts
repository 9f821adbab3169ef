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
