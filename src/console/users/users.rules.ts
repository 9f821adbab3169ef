import { USER_STATUSES, type UserStatus } from '../../hotspot-users/entities/hotspot-user.entity.js';
import type { HotspotUserDto } from '../../hotspot-users/dto/hotspot-user.response.js';
import { MAX_PAGE } from '../../hotspot-users/dto/hotspot-user-queries.dto.js';
import {
  SEARCH_QUERY_MAX_LENGTH,
  searchMatchOf,
  type SearchMatch,
  type SearchPrefixes,
} from '../../hotspot-users/user-search.rules.js';
import { EMAIL_MAX_LENGTH, PHONE_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../../common/validation/normalise.js';
import { METADATA_MAX_BYTES, VENUE_ID_PATTERN } from '../../common/validation/validators.js';
import { ROOM_MAX_LENGTH } from '../../hotspot-users/dto/field-schemas.js';
import { USER_TEXT_FIELDS, type UserTextField } from '../../hotspot-users/user-text-fields.js';
import { instantAsWallDateTime, nextWallTime, wallDateTime, wallTimeOnDay } from '../../web/zoned-time.js';

/**
 * The users screen's pure parts: the list's query string read into the v1 list's terms, and the
 * create and edit forms read into the v1 DTOs' bodies (validated afterwards by the v1 pipe, so the
 * console and the API refuse the same values with the same field names).
 */

export interface UsersListFilters {
  venueId: string | null;
  q: string;
  status: UserStatus | undefined;
  page: number;
  /** Whether the list shows the batches' accounts (vouchers), hidden unless asked for (`vouchers=shown`). */
  vouchers: boolean;
  /** Catalogue keys of what was wrong in the query (the list is shown without it). */
  problems: string[];
}

export function listFilters(raw: {
  venueId: string;
  q: string;
  status: string;
  page: string;
  vouchers?: string;
}): UsersListFilters {
  const problems: string[] = [];
  let venueId: string | null = raw.venueId.trim() === '' ? null : raw.venueId.trim();
  if (venueId !== null && !VENUE_ID_PATTERN.test(venueId)) {
    problems.push('users.problem.venueId');
    venueId = null;
  }
  let q = raw.q.trim();
  if ([...q].length > SEARCH_QUERY_MAX_LENGTH || /[\p{Cc}]/u.test(q)) {
    problems.push('users.problem.q');
    q = '';
  }
  const status = (USER_STATUSES as readonly string[]).includes(raw.status) ? (raw.status as UserStatus) : undefined;
  const page = /^[1-9][0-9]{0,6}$/.test(raw.page) ? Math.min(Number(raw.page), MAX_PAGE) : 1;
  return { venueId, q, status, page, vouchers: raw.vouchers === 'shown', problems };
}

/**
 * Whether the list leaves out the batches' accounts: unless the operator asked to see them, and
 * never while searching (a search looks through every account, so a voucher's code finds it).
 */
export function hidesVouchers(filters: Pick<UsersListFilters, 'q' | 'vouchers'>): boolean {
  return !filters.vouchers && filters.q === '';
}

/** The list's URL with these filters (and a page), for the pager and the links back. */
export function listUrl(filters: {
  venueId: string | null;
  q?: string;
  status?: string;
  page?: number;
  vouchers?: boolean;
}): string {
  const params = new URLSearchParams();
  if (filters.venueId !== null) params.set('venueId', filters.venueId);
  if (filters.q !== undefined && filters.q !== '') params.set('q', filters.q);
  if (filters.status !== undefined && filters.status !== '') params.set('status', filters.status);
  if (filters.vouchers === true) params.set('vouchers', 'shown');
  if (filters.page !== undefined && filters.page > 1) params.set('page', String(filters.page));
  const query = params.toString();
  return query === '' ? '/admin/users' : `/admin/users?${query}`;
}

/** A user's page (another screen's), in the venue the operator came from. */
export function userUrl(id: string, venueId: string | null, notice?: string): string {
  const params = new URLSearchParams();
  if (venueId !== null) params.set('venueId', venueId);
  if (notice !== undefined) params.set('notice', notice);
  const query = params.toString();
  return `/admin/users/${encodeURIComponent(id)}${query === '' ? '' : `?${query}`}`;
}

/**
 * The page of a user just created, with its generated password for a few minutes (`resultId`: the
 * result the POST left for its session), in the venue the operator came from.
 */
export function createdUrl(id: string, resultId: string, venueId: string | null): string {
  const query = venueId === null ? '' : `?${new URLSearchParams({ venueId }).toString()}`;
  return `/admin/users/${encodeURIComponent(id)}/created/${encodeURIComponent(resultId)}${query}`;
}

/** The printable guest slip of a create's or a password reset's result (`resultId`), in the venue the operator came from. */
export function slipUrl(id: string, resultId: string, venueId: string | null): string {
  const query = venueId === null ? '' : `?${new URLSearchParams({ venueId }).toString()}`;
  return `/admin/users/${encodeURIComponent(id)}/slip/${encodeURIComponent(resultId)}${query}`;
}

/** The confirmed actions on a user: what each needs, and the notice after it (each has a confirmation page). */
export const USER_ACTIONS = {
  block: { permission: 'write', notice: 'notice.users.blocked' },
  unblock: { permission: 'write', notice: 'notice.users.unblocked' },
  expire: { permission: 'write', notice: 'notice.users.expired' },
  delete: { permission: 'delete', notice: 'notice.users.deleted' },
} as const;
export type UserAction = keyof typeof USER_ACTIONS;

/** The fields of the create and edit forms: the one list the form, its reading and its type come from. */
export const USER_FORM_FIELDS = [
  'loginMethod',
  'name',
  'username',
  'password',
  'email',
  'phone',
  'room',
  'macAddress',
  'venueIds',
  'planId',
  'expiresAt',
  'metadata',
] as const;

/**
 * How much of each field the form reads: one character more than the API takes (the metadata's 16 KiB
 * too), so a longer value is refused with the API's message instead of cut to fit.
 */
export function formFieldLength(name: UserFormField): number | undefined {
  const limit = name === 'loginMethod' ? null : USER_FORM_INPUTS[name].maxLength;
  return limit === null ? undefined : limit + 1;
}

/** The create and edit forms' values, as typed. */
export type UserForm = Record<(typeof USER_FORM_FIELDS)[number], string>;

export type UserFormField = (typeof USER_FORM_FIELDS)[number];

/** How the form shows a field: its input, whether a help text (`users.help.<name>`) goes with it, and whether it must be filled. */
export interface UserFormInput {
  name: Exclude<UserFormField, 'loginMethod'>;
  type: 'text' | 'password' | 'email' | 'tel' | 'datetime-local' | 'textarea' | 'select';
  autocomplete: 'off' | 'new-password' | null;
  /** The API's limit in characters (the browser stops there, and the form reads that much); null: none. */
  maxLength: number | null;
  help: boolean;
  required: boolean;
}

/**
 * Every field the form shows, in its order (the login method is the page's choice, not an input):
 * a field missing here does not compile, so the form cannot leave one out.
 */
const USER_FORM_INPUTS: { [Name in UserFormInput['name']]: Omit<UserFormInput, 'name' | 'required'> } = {
  name: { type: 'text', autocomplete: 'off', maxLength: 255, help: false },
  username: { type: 'text', autocomplete: 'off', maxLength: USERNAME_MAX_LENGTH, help: false },
  password: { type: 'password', autocomplete: 'new-password', maxLength: 128, help: true },
  email: { type: 'email', autocomplete: 'off', maxLength: EMAIL_MAX_LENGTH, help: false },
  phone: { type: 'tel', autocomplete: 'off', maxLength: PHONE_MAX_LENGTH, help: true },
  room: { type: 'text', autocomplete: 'off', maxLength: ROOM_MAX_LENGTH, help: false },
  macAddress: { type: 'text', autocomplete: 'off', maxLength: 17, help: true },
  venueIds: { type: 'text', autocomplete: 'off', maxLength: null, help: true },
  planId: { type: 'select', autocomplete: null, maxLength: 36, help: true },
  expiresAt: { type: 'datetime-local', autocomplete: null, maxLength: null, help: true },
  metadata: { type: 'textarea', autocomplete: null, maxLength: METADATA_MAX_BYTES, help: true },
};

/**
 * The inputs of the create form (`editing` false) or the edit form for a user of `loginMethod`: a
 * password only when creating a username/password user, no username when creating a guest (the
 * service picks it), no expiry for a guest.
 */
export function userFormInputs(loginMethod: string, editing: boolean): UserFormInput[] {
  const guest = loginMethod === 'guest';
  const shown = (name: UserFormInput['name']): boolean => {
    if (name === 'password') return !editing && !guest;
    if (name === 'username') return editing || !guest;
    if (name === 'expiresAt') return !guest;
    return true;
  };
  return (Object.keys(USER_FORM_INPUTS) as Array<UserFormInput['name']>).filter(shown).map((name) => ({
    name,
    ...USER_FORM_INPUTS[name],
    required: name === 'name' || name === 'venueIds' || (name === 'username' && loginMethod === 'username_password'),
  }));
}

/** The stays the form offers instead of typing an expiry: until the next check-out, or one more night. */
export const STAY_CHOICES = ['checkOut', 'extraNight'] as const;
export type StayChoice = (typeof STAY_CHOICES)[number];

export function stayChoiceOf(raw: string): StayChoice | null {
  return (STAY_CHOICES as readonly string[]).includes(raw) ? (raw as StayChoice) : null;
}

/**
 * When a stay ends, in the venue's `zone` with its check-out time: `checkOut` at the next check-out
 * (today's while it is ahead, else tomorrow's); `extraNight` at the check-out of the day after the
 * current expiry when that is still ahead, else of the day after today.
 */
export function stayEnd(
  choice: StayChoice,
  now: Date,
  zone: string,
  checkOutTime: string,
  currentExpiry: Date | null,
): Date | null {
  if (choice === 'checkOut') return nextWallTime(now, checkOutTime, zone);
  const base = currentExpiry !== null && currentExpiry.getTime() > now.getTime() ? currentExpiry : now;
  return wallTimeOnDay(base, 1, checkOutTime, zone);
}

/** Venue ids typed in one field, separated by commas or spaces. */
export function venueIdsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter((id) => id !== '');
}

/** A venue the form's picker offers: ticked or not, and whether it is registered. */
export interface VenueChoice {
  id: string;
  checked: boolean;
  registered: boolean;
}

/**
 * The user form's venue picker: `offered` (the operator's venues, or every registered venue for an
 * operator of every venue) then `kept` (the venue the form was opened for, the user's own venues)
 * as checkboxes, ticked when in `venueIds`; the other ids of `venueIds` go back into the text field
 * of ids typed (which only an operator of every venue is shown).
 */
export function venuePicker(
  venueIds: readonly string[],
  offered: readonly string[],
  kept: readonly string[],
  registered: ReadonlySet<string>,
): { choices: VenueChoice[]; typed: string[] } {
  const ids = [...new Set([...offered, ...kept])];
  return {
    choices: ids.map((id) => ({ id, checked: venueIds.includes(id), registered: registered.has(id) })),
    typed: venueIds.filter((id) => !ids.includes(id)),
  };
}

/** The venues of the form: the ticked ones, then the ones typed, each once. */
export function pickedVenueIds(ticked: readonly string[], typed: string): string[] {
  return [...new Set([...ticked.filter((id) => id !== ''), ...venueIdsOf(typed)])];
}

/**
 * The venues of `venueIds` that an operator of every venue typed without their being registered
 * (nor the venue the form was opened for, nor one the user is in already): the form asks to confirm
 * them first, so that a mistyped id does not quietly make a new, empty venue.
 */
export function unconfirmedVenues(
  venueIds: readonly string[],
  known: readonly string[],
  registered: ReadonlySet<string>,
): string[] {
  return venueIds.filter((id) => !registered.has(id) && !known.includes(id));
}

/** A form's problem that the v1 validation cannot see (a field the form turns into a value). */
export interface FormProblem {
  field: string;
  key: string;
}

/** A problem as the form shows it: beside its field when the form has it, and in the summary. */
export interface ShownProblem {
  field: string | null;
  /** A catalogue key, or null with `text` (a refusal that names no field of the form, as the API said it). */
  key: string | null;
  text: string | null;
}

/**
 * A v1 refusal of one field, in the form's words: the field the form has (`venueIds.0` is the
 * venues' field), and the catalogue's sentence for it (`users.invalid.<field>` for a value the API
 * refused, `users.taken.<field>` for a username, email or phone another user of the venue holds,
 * `users.problem.venueOutside` for a venue outside the operator's), never the API's field name. A
 * field the form does not have keeps the API's text, shown in the summary only.
 */
export function apiFieldProblem(status: number, field: string, text: string): ShownProblem {
  const name = field.split('.')[0];
  if (!(USER_FORM_FIELDS as readonly string[]).includes(name)) return { field: null, key: null, text };
  if (status === 403 && name === 'venueIds') return { field: name, key: 'users.problem.venueOutside', text: null };
  // The user's plan is not offered in a venue the change gives the user.
  if (status === 422 && name === 'venueIds') return { field: name, key: 'users.problem.planNotOffered', text: null };
  if (status === 409 && (TAKEN_FIELDS as readonly string[]).includes(name)) {
    return { field: name, key: `users.taken.${name}`, text: null };
  }
  return { field: name, key: `users.invalid.${name}`, text: null };
}

/** The fields unique within a venue, whose 409 says another user holds the value. */
export const TAKEN_FIELDS = ['username', 'email', 'phone'] as const;

/** The form's problems and the API's together, one per field and message, in the form's order of fields. */
export function mergedProblems(own: readonly ShownProblem[], api: readonly ShownProblem[]): ShownProblem[] {
  const all = [...own, ...api];
  const seen = new Set<string>();
  const unique = all.filter((problem) => {
    const id = `${problem.field ?? ''} ${problem.key ?? ''} ${problem.text ?? ''}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const order = (problem: ShownProblem) =>
    problem.field === null ? -1 : (USER_FORM_FIELDS as readonly string[]).indexOf(problem.field);
  return unique.sort((a, b) => order(a) - order(b));
}

/**
 * The v1 create body of the form; empty optional fields are left out; the password only when typed
 * (the console generates one otherwise). `expiresAt` is a local time in the operator's zone.
 */
export function createBody(
  form: UserForm,
  zone: string | null,
): { body: Record<string, unknown>; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const guest = form.loginMethod === 'guest';
  const body: Record<string, unknown> = {
    name: form.name,
    loginMethod: form.loginMethod,
    venueIds: venueIdsOf(form.venueIds),
  };
  for (const name of ['username', ...USER_TEXT_FIELDS, 'macAddress'] as const) {
    if (form[name].trim() !== '') body[name] = form[name].trim();
  }
  if (!guest && form.password !== '') body.password = form.password;
  if (form.planId.trim() !== '') body.planId = form.planId.trim();
  if (form.expiresAt.trim() !== '') {
    const instant = wallDateTime(form.expiresAt.trim(), zone);
    if (instant === null) problems.push({ field: 'expiresAt', key: 'users.problem.expiresAt' });
    else body.expiresAt = instant.toISOString();
  }
  const metadata = metadataOf(form.metadata);
  if (metadata === undefined) problems.push({ field: 'metadata', key: 'users.problem.metadata' });
  else if (metadata !== null) body.metadata = metadata;
  return { body, problems };
}

/** The v1 PUT body of the edit form: only what differs from `current`; an emptied field is null (cleared). */
export function updateBody(
  form: UserForm,
  current: HotspotUserDto,
  zone: string | null,
): { body: Record<string, unknown>; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const body: Record<string, unknown> = {};
  if (form.name !== current.name) body.name = form.name;
  for (const name of ['username', ...USER_TEXT_FIELDS, 'macAddress'] as const) {
    const typed = form[name].trim() === '' ? null : form[name].trim();
    if (typed !== current[name]) body[name] = typed;
  }
  const venueIds = venueIdsOf(form.venueIds);
  if (venueIds.join(',') !== current.venueIds.join(',')) body.venueIds = venueIds;
  const planId = form.planId.trim() === '' ? null : form.planId.trim();
  if (planId !== current.planId) body.planId = planId;
  const typedExpiry = form.expiresAt.trim();
  if (typedExpiry !== instantAsWallDateTime(current.expiresAt, zone)) {
    if (typedExpiry === '') body.expiresAt = null;
    else {
      const instant = wallDateTime(typedExpiry, zone);
      if (instant === null) problems.push({ field: 'expiresAt', key: 'users.problem.expiresAt' });
      else body.expiresAt = instant.toISOString();
    }
  }
  const metadata = metadataOf(form.metadata);
  if (metadata === undefined) problems.push({ field: 'metadata', key: 'users.problem.metadata' });
  else if (JSON.stringify(metadata ?? {}) !== JSON.stringify(current.metadata)) body.metadata = metadata ?? {};
  return { body, problems };
}

/** The edit form filled from a record. */
export function formOf(user: HotspotUserDto, zone: string | null): UserForm {
  return {
    loginMethod: user.loginMethod,
    name: user.name,
    username: user.username ?? '',
    password: '',
    ...textFieldsOf(user),
    macAddress: user.macAddress ?? '',
    venueIds: user.venueIds.join(', '),
    planId: user.planId ?? '',
    expiresAt: instantAsWallDateTime(user.expiresAt, zone),
    metadata: Object.keys(user.metadata).length === 0 ? '' : JSON.stringify(user.metadata, null, 2),
  };
}

/** A JSON object typed in a text area: null when empty, undefined when it is not a JSON object. */
function metadataOf(text: string): Record<string, unknown> | null | undefined {
  if (text.trim() === '') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a row of the list was found by the search (the field that matched, and its value), so the
 * operator sees that "1204" found a room and not a phone; null without a search.
 */
export function rowMatch(search: SearchPrefixes | null, user: HotspotUserDto): SearchMatch | null {
  if (search === null) return null;
  return searchMatchOf(search, {
    name: user.name,
    username: user.username,
    email: user.email,
    phone: user.phone,
    room: user.room,
    macAddress: user.macAddress,
    deviceMacs: user.devices.map((device) => device.macAddress),
  });
}

/** The user's text fields as the form holds them: empty for null. */
function textFieldsOf(user: HotspotUserDto): Record<UserTextField, string> {
  return Object.fromEntries(USER_TEXT_FIELDS.map((name) => [name, user[name] ?? ''])) as Record<UserTextField, string>;
}

/** A plan the user form's select offers. */
export interface PlanChoice {
  id: string;
  name: string;
  selected: boolean;
}

/**
 * The plans the user form offers: of `plans` (those the operator sees), the ones offered in every
 * venue of the form's `venueIds` (all of them while it has none), and the one `selected` whatever
 * its venues, so that a user's plan stays shown (the service refuses it if it no longer fits).
 */
export function planChoices(
  plans: ReadonlyArray<{ _id: string; name: string; venueIds: readonly string[] }>,
  venueIds: readonly string[],
  selected: string,
): PlanChoice[] {
  return plans
    .filter((plan) => plan._id === selected || venueIds.every((venueId) => plan.venueIds.includes(venueId)))
    .map((plan) => ({ id: plan._id, name: plan.name, selected: plan._id === selected }));
}
