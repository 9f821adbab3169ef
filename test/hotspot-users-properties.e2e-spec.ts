import fc from 'fast-check';
import type { Response } from 'supertest';
import { createUser } from './support/factories.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

/**
 * Property-based: bodies whose fields sit at the edges of what the columns hold (full Unicode with
 * lone surrogates, astral and case-changing characters, control characters, lengths around each
 * limit, dates around year 9999 with offsets). Whatever the body, the answer is never a 5xx; a 400
 * names each field that breaks a documented rule and no field that keeps them all; a 201/200 stores
 * every value, and GET returns it exactly (after the documented normalisation). The rules are
 * restated here from docs/api.md, independently of the validators.
 *
 * Fixed seed and bounded runs; fast-check prints the seed and path of any failure for replay.
 */

const USERS = '/api/v1/hotspot-users';
const SEED = 20_261_122;
const RUNS = 80;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** valid: every rule kept; invalid: a rule the validation checks is broken; either: the test does not decide. */
type Verdict = 'valid' | 'invalid' | 'either';

interface Generated {
  value: unknown;
  verdict: Verdict;
  /** What GET returns after a success. */
  expected?: unknown;
  /** Refused after the body checks (a past expiresAt, expiresAt on a guest): 400 but only once the rest passes. */
  refusedLater?: boolean;
  /** For venueIds: the path the 400 names. */
  path?: string;
}

// --- rules, restated ----------------------------------------------------------------------------

const characters = (text: string) => [...text].length;
// A lone surrogate does not survive UTF-8.
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8') === text;
// eslint-disable-next-line no-control-regex
const safe = (text: string) => wellFormed(text) && !/[\u0000-\u001f\u007f]/.test(text);
/** Names and rooms also refuse the bidirectional controls that reorder what a page shows. */
const shown = (text: string) => safe(text) && !/[\u202a-\u202e\u2066-\u2069]/.test(text);
const VENUE_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const USERNAME = /^[A-Za-z0-9._@+-]{1,64}$/;
const MAC_FORMS = [
  /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/,
  /^[0-9A-Fa-f]{2}(-[0-9A-Fa-f]{2}){5}$/,
  /^[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}$/,
  /^[0-9A-Fa-f]{12}$/,
];

function phoneVerdict(phone: string): Verdict {
  const digits = phone.replace(/\D/g, '').length;
  return /^\+?[0-9 ()-]+$/.test(phone) && digits >= 7 && digits <= 15 && phone.length <= 32 ? 'valid' : 'invalid';
}

/** Levels of objects and arrays, the outermost counting as 1. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

// --- text at the edges --------------------------------------------------------------------------

// Listed with a separator: written side by side, \uDBFF and \uDC00 would make a pair.
const unsafeCharacter = fc.constantFrom(
  ...'\u0000|\t|\n|\r|\u001b|\u001f|\u007f|\uD800|\uDBFF|\uDC00|\uDFFF'.split('|'),
);
/** Case-changing (İ, ß, ς, K…), astral, combining, invisible and space-like characters. */
const edgeCharacter = fc.constantFrom(
  ...'İ|ß|ẞ|Σ|ς|ﬁ|\u212A|ǅ|\u{10400}|\u{1F600}|\u{10FFFF}|\u0301|\uFE0F|\u200B'.split('|'),
  ...'\uFEFF|\u00A0|\u2028|\u0085| |é|e\u0301|\uFFFD'.split('|'),
);
const plainCharacter = fc.constantFrom('a', 'Z', '0', '.', '-', '_', '@', '+', ':', '(', ')', ' ');
/** Any code point, edge characters and plain ones; no control character or lone surrogate (rarely a C0 one). */
const safeCharacter = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: edgeCharacter },
  { weight: 3, arbitrary: plainCharacter },
);
const character = fc.oneof({ weight: 9, arbitrary: safeCharacter }, { weight: 1, arbitrary: unsafeCharacter });
const text = (maxLength: number) => fc.string({ unit: character, maxLength });
const safeText = (minLength: number, maxLength: number) => fc.string({ unit: safeCharacter, minLength, maxLength });

/** `limit + delta` characters or one more: a filler repeated, then a short tail. */
const aroundLimit = (limit: number, fillers: string[], deltas: [number, number], tail: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.integer({ min: deltas[0], max: deltas[1] }), fc.constantFrom(...fillers), tail)
    .map(([delta, filler, end]) => {
      let value = '';
      while (characters(value) + characters(end) < limit + delta) value += filler;
      return value + end;
    });

const insertUnsafe = (base: string) =>
  fc.tuple(unsafeCharacter, fc.nat(base.length)).map(([bad, at]) => base.slice(0, at) + bad + base.slice(at));

// --- fields: values meant to be accepted (good), anything at the edges (wild), and the verdict ------

interface FieldSpec {
  /** Absent: the field is only ever sent as a wild value. */
  good?: fc.Arbitrary<unknown>;
  wild: fc.Arbitrary<unknown>;
  judge: (raw: unknown, tag: string) => Generated;
}

const NAME_FILLERS = ['n', '\u{1F600}', '\u2764\uFE0F', 'İ'];
const name: FieldSpec = {
  good: fc.oneof(safeText(1, 12), aroundLimit(255, NAME_FILLERS, [-2, -1], safeText(0, 2))),
  wild: fc.oneof(
    text(12),
    aroundLimit(255, NAME_FILLERS, [-1, 1], text(3)),
    insertUnsafe('Ayşe Yılmaz'),
    fc.constantFrom('Guest \u202Egnp.exe', 'Ayşe \u2067Yılmaz\u2069'),
    fc.constantFrom<unknown>(5, '   ', null),
  ),
  judge: (value) => {
    if (typeof value !== 'string') return { value, verdict: 'invalid' };
    const trimmed = value.trim();
    const ok = shown(trimmed) && characters(trimmed) >= 1 && characters(trimmed) <= 255;
    return { value, verdict: ok ? 'valid' : 'invalid', expected: trimmed };
  },
};

/** A room as a desk types it: trimmed, 1-32 characters, no control characters; null unsets it. */
const room: FieldSpec = {
  good: fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 -]{0,7}$/),
    aroundLimit(32, ['1', 'Ş'], [-2, -1], safeText(0, 2)),
    fc.constant(null),
  ),
  wild: fc.oneof(
    text(8),
    aroundLimit(32, ['1', 'Ş'], [-1, 1], text(2)),
    insertUnsafe('1204'),
    fc.constantFrom<unknown>(5, '', '   '),
  ),
  judge: (value) => {
    if (value === null) return { value, verdict: 'valid', expected: null };
    if (typeof value !== 'string') return { value, verdict: 'invalid' };
    const trimmed = value.trim();
    const ok = shown(trimmed) && characters(trimmed) >= 1 && characters(trimmed) <= 32;
    return { value, verdict: ok ? 'valid' : 'invalid', expected: trimmed };
  },
};

const asciiUsername = fc.stringMatching(/^[A-Za-z0-9._@+-]{1,12}$/);
/** required: username_password on create; removable false: username_password on PUT (null, "" refused later). */
const username = (options: { required: boolean; removable: boolean }): FieldSpec => ({
  good: fc.oneof(asciiUsername, aroundLimit(64, ['u', 'U'], [-2, -1], fc.stringMatching(/^[a-z0-9]{0,2}$/))),
  wild: fc.oneof(
    text(10),
    aroundLimit(64, ['u', 'İ'], [-1, 1], text(2)),
    insertUnsafe('room-1204'),
    fc.constantFrom<unknown>(null, ''),
  ),
  judge: (value) => {
    if (!options.removable && (value === null || value === '')) {
      return { value, verdict: 'valid', refusedLater: true };
    }
    if (value === null) return { value, verdict: options.required ? 'invalid' : 'valid', expected: null };
    return { value, verdict: typeof value === 'string' && USERNAME.test(value) ? 'valid' : 'invalid', expected: value };
  },
});

/** A valid address of `total` UTF-16 units, its local part starting with `dotted` × İ (2 characters lower-cased). */
function longEmail([dotted, total]: [number, number]): string {
  const local = `${'İ'.repeat(dotted)}x`;
  let rest = total - local.length - 1 - '.com'.length;
  const labels: string[] = [];
  while (rest > 63) {
    labels.push('a'.repeat(62));
    rest -= 63;
  }
  labels.push('b'.repeat(rest));
  return `${local}@${labels.join('.')}.com`;
}

const plainEmail = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9]{1,10}$/),
    fc.constantFrom('', 'İ', 'ß', 'É'),
    fc.stringMatching(/^[a-z0-9]{1,10}$/),
    fc.boolean(),
  )
  .map(([local, letter, label, astral]) => `${local}${letter}@${label}${astral ? '\u{1F600}' : ''}.example.com`);

interface EmailCandidate {
  value: unknown;
  trusted: boolean;
}
const trusted = (arbitrary: fc.Arbitrary<string>) =>
  arbitrary.map((value): EmailCandidate => ({ value, trusted: true }));
const untrusted = (arbitrary: fc.Arbitrary<unknown>) =>
  arbitrary.map((value): EmailCandidate => ({ value, trusted: false }));

const email: FieldSpec = {
  good: fc.oneof(
    trusted(
      fc
        .integer({ min: 250, max: 254 })
        .chain((total) => fc.tuple(fc.integer({ min: 0, max: 254 - total }), fc.constant(total)))
        .map(longEmail),
    ),
    trusted(plainEmail),
    fc.constant<EmailCandidate>({ value: null, trusted: true }),
  ),
  wild: fc.oneof(
    trusted(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 250, max: 256 })).map(longEmail)),
    untrusted(fc.tuple(text(6), text(6)).map(([local, domain]) => `${local}@${domain}.com`)),
    untrusted(text(6).map((quoted) => `"${quoted}"@example.com`)),
    untrusted(fc.emailAddress()),
    untrusted(insertUnsafe('ayse@example.com')),
    untrusted(fc.constantFrom(42, '')),
  ),
  judge: (raw) => {
    const { value, trusted: isTrusted } = raw as EmailCandidate;
    if (value === null) return { value, verdict: 'valid', expected: null };
    if (typeof value !== 'string') return { value, verdict: 'invalid' };
    const fits = safe(value) && value.length <= 254 && characters(value.toLowerCase()) <= 254;
    return { value, verdict: !fits ? 'invalid' : isTrusted ? 'valid' : 'either', expected: value };
  },
};

const phone: FieldSpec = {
  good: fc.oneof(
    fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^[0-9]{7,15}$/),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(' ', '-', '(', ')')), { maxLength: 20 }),
      )
      .map(([plus, digits, separators]) => {
        let value = digits;
        for (const [at, separator] of separators.slice(0, 31 - digits.length)) {
          const cut = 1 + (at % value.length);
          value = value.slice(0, cut) + separator + value.slice(cut);
        }
        return `${plus ? '+' : ''}${value}`;
      }),
    fc.constant(null),
  ),
  wild: fc.oneof(
    fc
      .tuple(
        fc.boolean(),
        fc.array(fc.constantFrom('0', '5', '9', ' ', '-', '(', ')', '  '), { minLength: 5, maxLength: 34 }),
      )
      .map(([plus, parts]) => `${plus ? '+' : ''}${parts.join('')}`),
    insertUnsafe('+90 532 123 45 67'),
    text(10),
  ),
  judge: (value) => {
    if (value === null) return { value, verdict: 'valid', expected: null };
    return { value, verdict: typeof value === 'string' ? phoneVerdict(value) : 'invalid', expected: value };
  },
};

const macForms = fc
  .tuple(fc.uint8Array({ minLength: 6, maxLength: 6 }), fc.integer({ min: 0, max: 3 }), fc.boolean())
  .map(([bytes, form, lower]) => {
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0'));
    const joined = [
      hex.join(':'),
      hex.join('-'),
      `${hex[0]}${hex[1]}.${hex[2]}${hex[3]}.${hex[4]}${hex[5]}`,
      hex.join(''),
    ][form];
    return lower ? joined : joined.toUpperCase();
  });
const judgeMac = (value: unknown): Generated => {
  if (value === null) return { value, verdict: 'valid', expected: null };
  if (typeof value !== 'string' || !MAC_FORMS.some((form) => form.test(value))) return { value, verdict: 'invalid' };
  return {
    value,
    verdict: 'valid',
    expected: value
      .replace(/[^0-9A-Fa-f]/g, '')
      .toUpperCase()
      .match(/../g)!
      .join(':'),
  };
};
const macWild = fc.oneof(insertUnsafe('aa-bb-cc-dd-ee-ff'), text(8), fc.constant('aa:bb-cc:dd-ee:ff'));
const macAddress: FieldSpec = { good: fc.oneof(macForms, fc.constant(null)), wild: macWild, judge: judgeMac };

type VenueTemplate = { length: number; rest: string } | { bad: string };
const goodVenue = fc.record({
  length: fc.oneof(fc.integer({ min: 8, max: 20 }), fc.constantFrom(63, 64)),
  rest: fc.stringMatching(/^[A-Za-z0-9_.:-]{0,70}$/),
});
const wildVenue: fc.Arbitrary<VenueTemplate> = fc.oneof(
  fc.record({ length: fc.constantFrom(64, 65, 66), rest: fc.stringMatching(/^[A-Za-z0-9_.:-]{0,70}$/) }),
  fc.record({ bad: fc.oneof(text(6), insertUnsafe('venue')).filter((value) => !VENUE_ID.test(value)) }),
);

/** Valid venue ids start with a tag of their own run, so users of different runs never share a venue (no 409). */
const venueIds: FieldSpec = {
  good: fc.tuple(fc.array(goodVenue, { minLength: 1, maxLength: 4 }), fc.boolean()),
  wild: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(fc.array(fc.oneof(goodVenue, wildVenue), { minLength: 1, maxLength: 4 }), fc.boolean()),
    },
    { weight: 1, arbitrary: fc.constantFrom<unknown>([], 'venue', null) },
  ),
  judge: (raw, tag) => {
    if (!Array.isArray(raw) || !Array.isArray(raw[0])) return { value: raw, verdict: 'invalid', path: 'venueIds' };
    const [templates, repeat] = raw as [VenueTemplate[], boolean];
    const ids = templates.map((template) =>
      'bad' in template ? template.bad : `${tag}.${template.rest}${'x'.repeat(70)}`.slice(0, template.length),
    );
    if (repeat) ids.push(ids[0]);
    const firstBad = ids.findIndex((id) => !VENUE_ID.test(id));
    if (firstBad !== -1) return { value: ids, verdict: 'invalid', path: `venueIds.${firstBad}` };
    return { value: ids, verdict: 'valid', expected: [...new Set(ids)] };
  },
};

const offsetMinutes = fc.oneof(
  fc.constantFrom(0, 1, -1, 60, -300, 330, 840, -720, 1439, -1439),
  fc.integer({ min: -1439, max: 1439 }),
);
const zoneStyle = fc.tuple(fc.boolean(), fc.boolean());

/** An ISO 8601 date-time naming `at`, written in the zone `offset` minutes from UTC. */
function isoAt(at: number, offset: number, zulu: boolean, colon: boolean): string {
  const local = new Date(at + offset * MINUTE);
  const year = local.getUTCFullYear();
  const pad = (number: number, size = 2) => String(number).padStart(size, '0');
  const date = `${year > 9999 ? year : pad(year, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const seconds = `${pad(local.getUTCSeconds())}.${pad(local.getUTCMilliseconds(), 3)}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${seconds}`;
  const size = Math.abs(offset);
  const zone =
    offset === 0 && zulu
      ? 'Z'
      : `${offset < 0 ? '-' : '+'}${pad(Math.floor(size / 60))}${colon ? ':' : ''}${pad(size % 60)}`;
  return `${date}T${time}${zone}`;
}

const future = fc.integer({ min: Date.now() + DAY, max: LATEST - DAY });
const lastInstants = fc.constantFrom(LATEST, LATEST - 1, LATEST - 59_999);
const expiresAt = (forGuest: boolean): FieldSpec => ({
  // A guest may not have one at all: null is its only good value.
  good: forGuest
    ? fc.constant(null)
    : fc.oneof(
        fc.tuple(future, offsetMinutes, zoneStyle),
        fc.tuple(lastInstants, fc.integer({ min: -1439, max: 0 }), zoneStyle),
        fc.constant(null),
      ),
  wild: fc.oneof(
    fc.tuple(fc.integer({ min: Date.now() - 3 * 365 * DAY, max: Date.now() - MINUTE }), offsetMinutes, zoneStyle),
    fc.tuple(fc.integer({ min: LATEST - 2 * DAY, max: LATEST + 2 * DAY }), offsetMinutes, zoneStyle),
    fc.tuple(fc.constantFrom(LATEST, LATEST + 1), offsetMinutes, zoneStyle),
    fc.tuple(future, offsetMinutes, zoneStyle),
    fc.constantFrom<unknown>('', 12345, '10000-01-01T00:00:00Z', '9999-12-31T23:59:59.999'),
  ),
  judge: (raw) => {
    if (raw === null) return { value: null, verdict: 'valid', expected: null };
    if (!Array.isArray(raw)) return { value: raw, verdict: 'invalid' };
    const [at, offset, [zulu, colon]] = raw as [number, number, [boolean, boolean]];
    const value = isoAt(at, offset, zulu, colon);
    if (new Date(at + offset * MINUTE).getUTCFullYear() > 9999 || at > LATEST) return { value, verdict: 'invalid' };
    return {
      value,
      verdict: 'valid',
      expected: new Date(at).toISOString(),
      refusedLater: forGuest || at <= Date.now(),
    };
  },
});

const jsonLeaf = fc.oneof(
  text(10),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const metadataKey = text(6).filter((key) => !['__proto__', 'constructor', 'prototype'].includes(key));
const jsonTree = (maxDepth: number) =>
  fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', maxDepth },
      jsonLeaf,
      fc.dictionary(metadataKey, tie('tree'), { maxKeys: 3 }),
      fc.array(tie('tree'), { maxLength: 3 }),
    ),
  })).tree;
/** `{"big":"…"}` of about 16 KiB: `delta` characters from the limit. */
const bigMetadata = (deltas: [number, number]) =>
  fc
    .tuple(fc.constantFrom('a', 'é', '\u{1F600}', '\uD800', '\u0000'), fc.integer({ min: deltas[0], max: deltas[1] }))
    .map(([filler, delta]) => {
      const bytes = Buffer.byteLength(JSON.stringify(filler)) - 2;
      return { big: filler.repeat(Math.floor((16 * 1024 - 10) / bytes) + delta) };
    });
const metadata: FieldSpec = {
  good: fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(metadataKey, jsonTree(5), { maxKeys: 4 }) },
    { weight: 1, arbitrary: bigMetadata([-8, 0]) },
  ),
  wild: fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(metadataKey, jsonTree(10), { maxKeys: 4 }) },
    { weight: 1, arbitrary: bigMetadata([-2, 8]) },
  ),
  judge: (value) => {
    const sent = JSON.parse(JSON.stringify(value)) as unknown;
    const ok = depthOf(sent) <= 8 && Buffer.byteLength(JSON.stringify(sent)) <= 16 * 1024;
    return { value, verdict: ok ? 'valid' : 'invalid', expected: sent };
  },
};

const status: FieldSpec = {
  good: fc.constantFrom('active', 'blocked', 'expired'),
  wild: fc.constantFrom<unknown>('ACTIVE', 'deleted', null, 1),
  judge: (value) => ({
    value,
    verdict: ['active', 'blocked', 'expired'].includes(value as string) ? 'valid' : 'invalid',
    expected: value,
  }),
};

const password: FieldSpec = {
  good: fc.stringMatching(/^[a-z0-9]{4,20}$/),
  wild: fc.oneof(text(8), fc.constant('abc')),
  judge: (value) => ({
    value,
    verdict: typeof value === 'string' && /^[a-z0-9]{4,20}$/.test(value) ? 'valid' : 'either',
  }),
};

const loginMethod = (value: string): FieldSpec => ({
  good: fc.constant(value),
  wild: fc.constant(value),
  judge: () => ({ value, verdict: value === 'sms' ? 'invalid' : 'valid' }),
});

// --- bodies -------------------------------------------------------------------------------------

type Specs = Record<string, FieldSpec>;
type Fields = Record<string, Generated>;

function createSpecs(method: string): Specs {
  const specs: Specs = {
    loginMethod: loginMethod(method),
    name,
    username: username({ required: method === 'username_password', removable: true }),
    email,
    phone,
    room,
    macAddress,
    venueIds,
    expiresAt: expiresAt(method === 'guest'),
    metadata,
  };
  if (method !== 'guest') specs.password = password;
  return specs;
}

const updateSpecs: Specs = {
  name,
  username: username({ required: false, removable: false }),
  email,
  phone,
  room,
  venueIds,
  expiresAt: expiresAt(false),
  metadata,
  status,
  // An addition to v1: PUT changes the MAC address as create sets it; null clears it.
  macAddress,
};

/**
 * Raw values for a body: about half the time every field is a good one, otherwise one or two are
 * wild, so accepted bodies and each kind of refusal both come up.
 */
function rawBody(specs: Specs, required: string[]): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(specs);
  return fc.oneof(fc.constant<string[]>([]), fc.subarray(keys, { minLength: 1, maxLength: 2 })).chain((wild) => {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const key of keys) {
      const arbitrary = wild.includes(key) ? specs[key].wild : specs[key].good;
      if (arbitrary !== undefined) model[key] = arbitrary;
    }
    return fc.record(model, { requiredKeys: [...required, ...wild].filter((key) => key in model) });
  });
}

const createBody = fc
  .constantFrom('username_password', 'username_password', 'guest', 'sms')
  .chain((method) =>
    rawBody(createSpecs(method), [
      'loginMethod',
      'name',
      'venueIds',
      ...(method === 'guest' ? [] : ['username', 'password']),
    ]).map((raw) => ({ method, raw })),
  );

const updateBody = rawBody(updateSpecs, []);

function judgeAll(specs: Specs, raw: Record<string, unknown>, tag: string): Fields {
  const fields: Fields = {};
  for (const [key, value] of Object.entries(raw)) fields[key] = specs[key].judge(value, tag);
  return fields;
}

// --- the oracle ---------------------------------------------------------------------------------

function bodyOf(fields: Fields): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.value]));
}

function describeCase(fields: Fields): string {
  return JSON.stringify(bodyOf(fields), (_key, value) =>
    typeof value === 'string' && value.length > 80 ? `${value.slice(0, 80)}…(${value.length})` : value,
  );
}

/** Asserts the answer fits the fields' verdicts; true when it was a success. */
function checkAnswer(response: Response, fields: Fields, success: number): boolean {
  const context = `${response.status} ${JSON.stringify(response.body)} for ${describeCase(fields)}`;
  expect({ context, serverError: response.status >= 500 }).toEqual({ context, serverError: false });
  const entries = Object.entries(fields);
  const broken = entries.filter(([, field]) => field.verdict === 'invalid');
  const refusedLater = entries.some(([, field]) => field.refusedLater);
  if (response.status !== 400) {
    expect({ context, status: response.status, broken: broken.map(([key]) => key), refusedLater }).toEqual({
      context,
      status: success,
      broken: [],
      refusedLater: false,
    });
    return true;
  }
  expect(response.body).toEqual({ success: false, message: 'Validation error', errors: expect.any(Array) });
  const named = (response.body.errors as Array<{ field: string }>).map((entry) => entry.field);
  const topLevel = named.map((field) => field.split('.')[0]);
  expect({ context, repeated: named.length !== new Set(named).size }).toEqual({ context, repeated: false });
  for (const field of topLevel) {
    expect({ context, field, known: field in fields }).toEqual({ context, field, known: true });
  }
  for (const [key, field] of broken) {
    const expected = field.path ?? key;
    expect({ context, named: named.includes(expected) }).toEqual({ context, named: true });
  }
  for (const [key, field] of entries) {
    if (field.verdict === 'valid' && !field.refusedLater) {
      expect({ context, wronglyNamed: topLevel.includes(key) ? key : null }).toEqual({ context, wronglyNamed: null });
    }
  }
  if (broken.length === 0 && entries.every(([, field]) => field.verdict === 'valid')) {
    expect({ context, refusedLater }).toEqual({ context, refusedLater: true });
  }
  return false;
}

/** GET returns each accepted field as sent (after the documented normalisation). */
async function checkStored(
  testApp: TestApp,
  id: string,
  fields: Fields,
  answered: Record<string, unknown>,
): Promise<void> {
  const read = await testApp.http
    .get(`${USERS}/${id}`)
    .set('Authorization', `Bearer ${testApp.adminToken}`)
    .expect(200);
  for (const [key, field] of Object.entries(fields)) {
    if (key === 'password' || key === 'loginMethod') continue;
    const context = `${key} of ${describeCase(fields)}`;
    expect({ context, value: read.body.data[key] }).toEqual({ context, value: field.expected });
    expect({ context, value: answered[key] }).toEqual({ context, value: field.expected });
  }
}

describeEachDatabase('hotspot users: property-based edges', (current) => {
  let runs = 0;
  const tag = () => `p${(++runs).toString(36)}`;

  it('create: never a 5xx; a 400 names each broken field; a 201 is stored and read back exactly', async () => {
    await fc.assert(
      fc.asyncProperty(createBody, async ({ method, raw }) => {
        const fields = judgeAll(createSpecs(method), raw, tag());
        const testApp = current();
        const response = await testApp.http
          .post(USERS)
          .set('Authorization', `Bearer ${testApp.adminToken}`)
          .send(bodyOf(fields));
        if (checkAnswer(response, fields, 201)) {
          await checkStored(testApp, response.body.data._id, fields, response.body.data);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 60_000);

  it('update (PUT): never a 5xx; a 400 names each broken field; a 200 is stored and read back exactly', async () => {
    await fc.assert(
      fc.asyncProperty(updateBody, async (raw) => {
        const runTag = tag();
        const fields = judgeAll(updateSpecs, raw, runTag);
        const testApp = current();
        const user = await createUser(testApp, { venueIds: [`${runTag}-home`] });
        const response = await testApp.http
          .put(`${USERS}/${user._id}`)
          .set('Authorization', `Bearer ${testApp.adminToken}`)
          .send(bodyOf(fields));
        if (checkAnswer(response, fields, 200)) await checkStored(testApp, user._id, fields, response.body.data);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 60_000);
});
