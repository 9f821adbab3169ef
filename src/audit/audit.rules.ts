/**
 * What an audit event is made of, decided without I/O. An event is built only from the fields named
 * here (who, what, on what, where from): there is no field for a value, so a password, token value or
 * NAS secret has nowhere to go.
 */

export const AUDIT_ACTOR_TYPES = ['token', 'operator', 'cli', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** Who made a change: an API token (id, name), an operator (id, email), the command line or the service itself. */
export interface AuditActor {
  type: AuditActorType;
  id: string | null;
  /** The token's name or the operator's email; null for `cli` and `system`. */
  name: string | null;
  /** Where the actor's request came from, for every event it causes; absent for `cli` and `system`. */
  origin?: AuditOrigin;
}

/** The command line: whoever has a shell and the database credentials, not named further. */
export const CLI_ACTOR: AuditActor = { type: 'cli', id: null, name: null };
/** The service on its own (the expiry sweep). */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, name: null };

/** The audit actor of an authenticated caller (an API token or a console operator), and where its request came from. */
export function actorOf(
  caller: { kind: 'token' | 'operator'; id: string; name: string },
  origin?: AuditOrigin,
): AuditActor {
  return origin === undefined
    ? { type: caller.kind, id: caller.id, name: caller.name }
    : { type: caller.kind, id: caller.id, name: caller.name, origin };
}

export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.block',
  'user.unblock',
  'user.expire',
  'user.delete',
  'user.password-reset',
  'session.disconnect',
  'unauth-job.retry',
  'token.create',
  'token.revoke',
  'nas.add',
  'nas.update',
  'nas.remove',
  'venue.create',
  'venue.update',
  'operator.create',
  'operator.update',
  'operator.disable',
  'operator.enable',
  'operator.reset-password',
  'signin.success',
  'signin.failure',
  '2fa.enrol',
  '2fa.reset',
  'batch.create',
  'batch.reveal',
  'plan.create',
  'plan.update',
  'plan.delete',
  'social-provider.add',
  'social-provider.update',
  'social-provider.remove',
  'access.denied',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  'user',
  'session',
  'unauth-job',
  'token',
  'nas',
  'operator',
  'venue',
  'batch',
  'plan',
  'social-provider',
  'page',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Where a request came from; both null for the command line and the service's own work. */
export interface AuditOrigin {
  clientAddress: string | null;
  requestId: string | null;
}

export const NO_ORIGIN: AuditOrigin = { clientAddress: null, requestId: null };

/** One event as a service reports it to AuditService.record. */
export interface AuditEventInput {
  actor: AuditActor;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null };
  /** The venues the target belongs to (a user's, a NAS's, a session's); null when it has none (a token, an operator). */
  venueIds: readonly string[] | null;
  /** user.update: the names of the fields the change set (never their values). */
  changedFields?: readonly string[];
  origin?: AuditOrigin;
  /** Defaults to success: a change that failed rolled back, and so did its event. */
  outcome?: AuditOutcome;
}

/** The stored shape of an event (the entity's fields). */
export interface AuditEventRecord {
  id: string;
  occurredAt: Date;
  actorType: AuditActorType;
  actorId: string | null;
  actorName: string | null;
  action: AuditAction;
  changedFields: string[] | null;
  targetType: AuditTargetType;
  targetId: string | null;
  venueIds: string[] | null;
  clientAddress: string | null;
  requestId: string | null;
  outcome: AuditOutcome;
}

/** The longest actor name, client address and request id kept (the columns' lengths). */
export const AUDIT_TEXT_LIMITS = { actorName: 254, clientAddress: 45, requestId: 128 } as const;

/** The event to store: only the fields listed, copied one by one, with venue and field names sorted. */
export function auditRecord(input: AuditEventInput, id: string, now: Date): AuditEventRecord {
  const origin = input.origin ?? input.actor.origin ?? NO_ORIGIN;
  return {
    id,
    occurredAt: now,
    actorType: input.actor.type,
    actorId: input.actor.id,
    actorName: clipped(input.actor.name, AUDIT_TEXT_LIMITS.actorName),
    action: input.action,
    changedFields: input.changedFields === undefined ? null : [...new Set(input.changedFields)].sort(),
    targetType: input.target.type,
    targetId: input.target.id,
    venueIds: input.venueIds === null ? null : [...new Set(input.venueIds)].sort(),
    clientAddress: clipped(origin.clientAddress, AUDIT_TEXT_LIMITS.clientAddress),
    requestId: clipped(origin.requestId, AUDIT_TEXT_LIMITS.requestId),
    outcome: input.outcome ?? 'success',
  };
}

function clipped(value: string | null, length: number): string | null {
  return value === null ? null : value.slice(0, length);
}

/** A value as the change compares it: dates by instant, lists and objects by their JSON. */
type Comparable = string | number | boolean | Date | null | undefined | readonly unknown[] | object;

/**
 * The names of the fields a PUT changes: those it sends with a value other than the stored one.
 * Values are compared, never returned. Arrays compare as sets when `unordered` names them (venue lists).
 */
export function changedFieldNames(
  stored: Readonly<Record<string, Comparable>>,
  sent: Readonly<Record<string, Comparable>>,
  unordered: readonly string[] = [],
): string[] {
  return Object.keys(sent)
    .filter((field) => sent[field] !== undefined)
    .filter((field) => !sameValue(stored[field], sent[field], unordered.includes(field)))
    .sort();
}

function sameValue(before: Comparable, after: Comparable, unordered: boolean): boolean {
  if (before instanceof Date || after instanceof Date) {
    return before instanceof Date && after instanceof Date && before.getTime() === after.getTime();
  }
  if (Array.isArray(before) && Array.isArray(after) && unordered) {
    return JSON.stringify([...before].sort()) === JSON.stringify([...after].sort());
  }
  if (typeof before === 'object' || typeof after === 'object') return canonicalJson(before) === canonicalJson(after);
  return before === after;
}

/** JSON with object keys in order, so `{a, b}` and `{b, a}` compare equal. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * The action of a user's PUT: a status move is the event (block, unblock, expire), whatever else the
 * PUT changed (its changed fields list them); otherwise user.update.
 */
export function userUpdateAction(from: string, to: string): AuditAction {
  if (from === to) return 'user.update';
  if (to === 'blocked') return 'user.block';
  if (to === 'expired') return 'user.expire';
  return from === 'blocked' ? 'user.unblock' : 'user.update';
}

/** The filter of `hotspot audit list`; each given field narrows the list. */
export interface AuditFilter {
  /** The actor's id or name. */
  actor?: string;
  targetId?: string;
  action?: AuditAction;
  since?: Date;
  limit: number;
}

/** When rows recorded before this instant are deleted (the retention counted back from now). */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}

/** The target types whose rows only administrators see in the console (they name no venue of a guest). */
export const ADMIN_ONLY_TARGET_TYPES: readonly AuditTargetType[] = ['token', 'operator', 'page'];

/** A refused console request is recorded at most this often per operator (and instance): a loop of refusals cannot flood the trail. */
export const DENIED_ACCESS_INTERVAL_MS = 60_000;

/** Whether a refusal at `now` gets an `access.denied` row, the operator's last one having been at `last` (ms). */
export function deniedAccessDue(last: number | undefined, now: number): boolean {
  return last === undefined || now - last >= DENIED_ACCESS_INTERVAL_MS || now < last;
}

/** The target id of an `access.denied` row: the route's pattern (ids as `:id`), as long as the column allows. */
export function deniedPage(routePattern: string): string {
  return routePattern.slice(0, 64);
}

/** Who reads the trail in the console: an administrator sees every row, others only their venues' rows. */
export interface AuditViewer {
  admin: boolean;
  /** null: every venue. */
  venueIds: readonly string[] | null;
}

/** The console's audit log query: each given field narrows it; rows newest first, one page at a time. */
export interface AuditPageQuery {
  actorType?: AuditActorType;
  /** The actor's id or name (email of an operator, name of a token). */
  actor?: string;
  action?: AuditAction;
  targetType?: AuditTargetType;
  targetId?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  viewer: AuditViewer;
  offset: number;
  limit: number;
}

/**
 * Whether a console viewer may see a row: an administrator every row; another operator only rows
 * about something in venues (never a token's or an operator's) whose venues all lie within its own.
 */
export function auditRowVisible(row: Pick<AuditEventRecord, 'targetType' | 'venueIds'>, viewer: AuditViewer): boolean {
  if (viewer.admin) return true;
  if (ADMIN_ONLY_TARGET_TYPES.includes(row.targetType)) return false;
  if (row.venueIds === null || row.venueIds.length === 0) return false;
  const allowed = viewer.venueIds;
  return allowed === null || row.venueIds.every((venueId) => allowed.includes(venueId));
}
