import type { FieldError } from '../common/errors/api-error.js';

/** A RADIUS attribute holds at most 253 octets; a longer value did not come from FreeRADIUS. */
const MAX_ATTRIBUTE_LENGTH = 253;
/** More attributes, or more values of one, than any real request carries. */
const MAX_ATTRIBUTES = 512;
const MAX_VALUES = 64;

type Value = string | number;

/**
 * The attributes of an rlm_rest JSON body (`{"Name": {"type": "…", "value": [ … ]}}`), by name.
 * Values are strings or numbers; strings are repaired to UTF-8 (see repairUtf8).
 */
export class RadiusAttributes {
  private constructor(private readonly values: ReadonlyMap<string, readonly Value[]>) {}

  /** The attributes of a body, or the fields that make it malformed (the caller answers 400). */
  static parse(body: unknown): RadiusAttributes | FieldError[] {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return [{ field: 'body', message: 'body must be a JSON object of RADIUS attributes' }];
    }
    const entries = Object.entries(body);
    if (entries.length > MAX_ATTRIBUTES) {
      return [{ field: 'body', message: `body must hold at most ${MAX_ATTRIBUTES} attributes` }];
    }
    const errors: FieldError[] = [];
    const values = new Map<string, Value[]>();
    for (const [name, attribute] of entries) {
      const parsed = parseAttribute(attribute);
      if (typeof parsed === 'string')
        errors.push({ field: name.slice(0, 64), message: `${name.slice(0, 64)} ${parsed}` });
      else values.set(name, parsed);
    }
    return errors.length > 0 ? errors : new RadiusAttributes(values);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The first value of a text attribute; null when absent or not a string. */
  string(name: string): string | null {
    const value = this.values.get(name)?.[0];
    return typeof value === 'string' ? value : null;
  }

  /** Every value of a text attribute (Class may come several times). */
  strings(name: string): string[] {
    return (this.values.get(name) ?? []).filter((value): value is string => typeof value === 'string');
  }

  /** The first value of an integer attribute, as a number or digits; null when absent or not one. */
  integer(name: string): number | null {
    const value = this.values.get(name)?.[0];
    if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
    if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
    return null;
  }

  /** An enumerated attribute, sent as its name (`Start`) or number (`1`); null when neither is known. */
  enumerated<Name extends string>(name: string, table: Readonly<Record<Name, number>>): Name | null {
    const value = this.values.get(name)?.[0];
    if (value === undefined) return null;
    for (const [label, code] of Object.entries(table) as Array<[Name, number]>) {
      if (value === label || value === code || value === String(code)) return label;
    }
    return null;
  }
}

/** The values of one attribute, or why it is malformed. */
function parseAttribute(attribute: unknown): Value[] | string {
  if (typeof attribute !== 'object' || attribute === null || Array.isArray(attribute)) {
    return 'must be an object with a value array';
  }
  const { value } = attribute as { value?: unknown };
  const list = Array.isArray(value) ? value : [value];
  if (value === undefined || list.length === 0) return 'must have a value';
  if (list.length > MAX_VALUES) return `must have at most ${MAX_VALUES} values`;
  const values: Value[] = [];
  for (const item of list) {
    if (typeof item === 'number' && Number.isFinite(item)) values.push(item);
    // Octets arrive as 0x and two hex digits per octet: up to 2 + 2 · 253 characters.
    else if (typeof item === 'string' && item.length <= 2 + 2 * MAX_ATTRIBUTE_LENGTH) values.push(repairUtf8(item));
    else
      return typeof item === 'string'
        ? 'is longer than a RADIUS attribute can be'
        : 'values must be strings or numbers';
  }
  return values;
}

/**
 * rlm_rest's JSON encoder escapes every UTF-8 byte ≥ 0x80 as its own code point (`josé` arrives as
 * `josÃ©`). A string whose code points all fit in a byte, with some in 0x80–0xFF, is read back as
 * the UTF-8 it was; when that yields U+FFFD it was not UTF-8, and stays as it came.
 */
export function repairUtf8(value: string): string {
  let high = false;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code > 0xff) return value;
    if (code >= 0x80) high = true;
  }
  if (!high) return value;
  const repaired = Buffer.from(value, 'latin1').toString('utf8');
  return repaired.includes('\uFFFD') ? value : repaired;
}

/** The bytes of an octets value (`0x…`), or null when it is not one. */
export function octets(value: string): Buffer | null {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) return null;
  return Buffer.from(value.slice(2), 'hex');
}
