import type { Request } from 'express';

/** Longest value read from any form field: more is cut (every field a page takes is shorter). */
const MAX_FIELD_LENGTH = 1024;

/** A form field as text ('' when absent or not text), cut at `maxLength` (MAX_FIELD_LENGTH: what a person types). */
export function field(request: Request, name: string, maxLength = MAX_FIELD_LENGTH): string {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === 'string' ? value.slice(0, maxLength) : '';
}

/** A form's text fields: one value per name of `names`, each read by `read` (a field, a query value). */
export function textFields<const Name extends string>(
  names: readonly Name[],
  read: (name: Name) => string,
): Record<Name, string> {
  return Object.fromEntries(names.map((name) => [name, read(name)])) as Record<Name, string>;
}

/** Every value of a repeated form field (checkboxes), each cut as `field` cuts. */
export function fieldValues(request: Request, name: string): string[] {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === 'string').map((v) => v.slice(0, MAX_FIELD_LENGTH));
}

/** A query-string parameter as text ('' when absent, repeated or not text). */
export function queryValue(request: Request, name: string): string {
  const value = request.query[name];
  return typeof value === 'string' ? value.slice(0, MAX_FIELD_LENGTH) : '';
}
