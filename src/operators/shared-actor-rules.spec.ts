import { AccessRecordCapture } from '../access-records/access-record-capture.service.js';
import { AccessRecordsRepository } from '../access-records/access-records.repository.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { NO_ORIGIN } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import type { Actor } from '../auth/actor.js';
import { ApiTokenRepository } from '../auth/api-token.repository.js';
import { ApiTokenService } from '../auth/api-token.service.js';
import { satisfies, type Permission } from '../auth/permissions.js';
import { toAuthenticated } from '../auth/token-rules.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { DatabaseService } from '../database/database.service.js';
import { toCreateInput, toListQuery, toUpdateInput } from '../hotspot-users/hotspot-user.inputs.js';
import { HotspotUserWriter } from '../hotspot-users/hotspot-user.writer.js';
import { HotspotUsersRepository } from '../hotspot-users/hotspot-users.repository.js';
import { HotspotUsersService } from '../hotspot-users/hotspot-users.service.js';
import type { PasswordHasher } from '../common/passwords/password-hasher.js';
import { UserAccess } from '../hotspot-users/user-access.js';
import { UserSessionEndings } from '../hotspot-users/user-session-endings.js';
import { VenueCountsRepository } from '../hotspot-users/venue-counts.repository.js';
import { IdempotencyRepository } from '../idempotency/idempotency.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { DevicesRepository } from '../sessions/devices.repository.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { UnauthJobsRepository } from '../unauth-jobs/unauth-jobs.repository.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import { toActor } from './operator-rules.js';
import { OperatorsRepository } from './operators.repository.js';
import { OperatorsService } from './operators.service.js';
import { registeredVenuesCheck } from '../testing/venues.js';
import { plansService } from '../testing/plans.js';

/** One-time passwords last 72 hours, as by default. */
const consoleConfig = {
  get: () => ({ oneTimePasswordLifetimeMs: 72 * 3_600_000 }),
} as unknown as ConstructorParameters<typeof OperatorsService>[5];

/**
 * One rule set for every caller: the same venue cases run through HotspotUsersService for an API
 * token and for a console operator with the same permissions and venues, each made and read back
 * the way the service makes them (ApiTokenService, OperatorsService), on a database of its own.
 * The answers (status, message and field errors, or what was read) must be identical.
 */

/** Hashing is the library's job; here only the actor matters. */
const fakeHasher = { hash: (password: string) => Promise.resolve(`hashed:${password}`) } as unknown as PasswordHasher;

/** Users every case starts with: one in venue A, one in A and B, one in C. */
interface Users {
  inA: string;
  inAB: string;
  inC: string;
}

type Outcome = { ok: unknown } | { status: number; message: string; errors: unknown };

type Case = (service: HotspotUsersService, actor: Actor, users: Users) => Promise<unknown>;

const rename = toUpdateInput({ name: 'Renamed' });
const newUser = (venueIds: string[]) =>
  toCreateInput({ name: 'New', loginMethod: 'username_password', username: 'new', password: 'secret', venueIds });

const CASES: Record<string, Case> = {
  'read a user of venue A': (service, actor, users) => service.get(actor, users.inA, {}),
  'read a user of venues A and B': (service, actor, users) => service.get(actor, users.inAB, {}),
  'read a user of venue C': (service, actor, users) => service.get(actor, users.inC, {}),
  'read a user of venue A in the context of venue B': (service, actor, users) =>
    service.get(actor, users.inA, { venueId: 'B' }),
  'change a user of venue A': (service, actor, users) => service.update(actor, users.inA, {}, rename, NO_ORIGIN),
  'change a user of venues A and B': (service, actor, users) =>
    service.update(actor, users.inAB, {}, rename, NO_ORIGIN),
  'change a user of venue C': (service, actor, users) => service.update(actor, users.inC, {}, rename, NO_ORIGIN),
  'expire a user of venues A and B': (service, actor, users) => service.expire(actor, users.inAB, {}, NO_ORIGIN),
  'delete a user of venue A': (service, actor, users) => service.remove(actor, users.inA, {}, NO_ORIGIN),
  'delete a user of venue C': (service, actor, users) => service.remove(actor, users.inC, {}, NO_ORIGIN),
  'list venue A': (service, actor) => service.list(actor, toListQuery({ venueId: 'A' })),
  'list venue C': (service, actor) => service.list(actor, toListQuery({ venueId: 'C' })),
  'list without a venue': (service, actor) => service.list(actor, toListQuery({})),
  'create a user in venue A': (service, actor) => service.create(actor, newUser(['A']), NO_ORIGIN),
  'create a user in venues A and C': (service, actor) => service.create(actor, newUser(['A', 'C']), NO_ORIGIN),
  'create a user in venue C': (service, actor) => service.create(actor, newUser(['C']), NO_ORIGIN),
};

const SCOPES: Array<{ permissions: Permission[]; venueIds: string[] | null }> = [
  { permissions: ['read', 'write', 'delete'], venueIds: null },
  { permissions: ['read', 'write', 'delete'], venueIds: ['A'] },
  { permissions: ['read', 'write'], venueIds: ['A', 'B'] },
  { permissions: ['read'], venueIds: ['C'] },
];

const KINDS = ['token', 'operator'] as const;

/** What the caller sees: the error's status, message and field errors, or the result without its ids and times. */
async function outcomeOf(work: Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: withoutVolatile(await work) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.getStatus(), message: error.body.message, errors: error.body.errors };
  }
}

/** Ids and times differ between two databases; everything else must not. */
function withoutVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !/^(_id|id|userId|createdAt|updatedAt|unauthJobIds)$/.test(key))
      .map(([key, entry]) => [key, withoutVolatile(entry)]),
  );
}

/** Runs `work` on a fresh database with the given kind of actor, made as the service makes it. */
async function asActor(
  kind: (typeof KINDS)[number],
  scope: (typeof SCOPES)[number],
  work: Case,
): Promise<{ outcome: Outcome; actor: Actor }> {
  const { database, close } = await openInMemoryDatabase();
  try {
    const clock = new ManualClock();
    const actor =
      kind === 'token' ? await tokenActor(database, clock, scope) : await operatorActor(database, clock, scope);
    const service = usersService(database, clock);
    const everyVenue = { ...actor, venueIds: null, permissions: ['delete'] as Permission[] };
    const user = async (username: string, venueIds: string[]) =>
      (await service.create(everyVenue, { ...newUser(venueIds), username }, NO_ORIGIN)).data._id;
    const users = {
      inA: await user('in-a', ['A']),
      inAB: await user('in-ab', ['A', 'B']),
      inC: await user('in-c', ['C']),
    };
    return { outcome: await outcomeOf(work(service, actor, users)), actor };
  } finally {
    await close();
  }
}

async function tokenActor(database: DatabaseService, clock: ManualClock, scope: (typeof SCOPES)[number]) {
  const config = { get: () => 0 } as unknown as ConstructorParameters<typeof ApiTokenService>[4];
  const tokens = new ApiTokenService(database, new ApiTokenRepository(), clock, auditOf(database, clock), config);
  const { record } = await tokens.create({ name: 'portal', ...scope, expiresAt: null });
  return toAuthenticated(record);
}

async function operatorActor(database: DatabaseService, clock: ManualClock, scope: (typeof SCOPES)[number]) {
  const repository = new OperatorsRepository();
  const operators = new OperatorsService(
    database,
    repository,
    fakeHasher,
    clock,
    new AuditService(database, new AuditRepository(), clock),
    consoleConfig,
  );
  await operators.create({
    email: 'ops@example.com',
    name: 'Ops',
    admin: false,
    password: 'a long passphrase',
    ...scope,
  });
  const stored = await database.run((em) => repository.findByEmailKey(em, 'ops@example.com'));
  return toActor(stored!);
}

function usersService(database: DatabaseService, clock: ManualClock): HotspotUsersService {
  const users = new HotspotUsersRepository(database);
  const sessions = new SessionsService(
    database,
    clock,
    new SessionsRepository(),
    new DevicesRepository(),
    auditOf(database, clock),
  );
  const jobs = new UnauthJobsService(database, new UnauthJobsRepository(database), new SessionsRepository());
  const writer = new HotspotUserWriter(
    database,
    users,
    new VenueCountsRepository(database),
    new AccessRecordCapture(database, clock, new AccessRecordsRepository()),
  );
  const venueScope = new VenueScopeService();
  return new HotspotUsersService(
    database,
    clock,
    venueScope,
    users,
    new UserAccess(venueScope, users),
    writer,
    new UserSessionEndings(sessions, jobs, writer),
    sessions,
    fakeHasher,
    new IdempotencyService(database, clock, new IdempotencyRepository()),
    auditOf(database, clock),
    registeredVenuesCheck(database, clock),
    plansService(database, clock),
  );
}

function auditOf(database: DatabaseService, clock: ManualClock): AuditService {
  return new AuditService(database, new AuditRepository(), clock);
}

describe.each(SCOPES)('an API token and an operator with permissions $permissions and venues $venueIds', (scope) => {
  it.each(Object.keys(CASES))('get the same answer: %s', async (name) => {
    const [token, operator] = await Promise.all(KINDS.map((kind) => asActor(kind, scope, CASES[name])));
    expect(token.actor.kind).toBe('token');
    expect(operator.actor.kind).toBe('operator');
    expect(operator.outcome).toEqual(token.outcome);
  });

  it('pass the same permission checks', async () => {
    const [token, operator] = await Promise.all(KINDS.map((kind) => asActor(kind, scope, () => Promise.resolve())));
    for (const level of ['read', 'write', 'delete', 'radius'] as const) {
      expect(satisfies(operator.actor.permissions, level)).toBe(satisfies(token.actor.permissions, level));
    }
    expect(operator.actor.venueIds).toEqual(token.actor.venueIds);
  });
});

/** The table must tell scopes apart, or identical answers would prove nothing. */
it('the cases give different answers to different scopes', async () => {
  const answers = await Promise.all(
    SCOPES.map(async (scope) => {
      const outcomes = [];
      for (const work of Object.values(CASES)) outcomes.push((await asActor('operator', scope, work)).outcome);
      return JSON.stringify(outcomes.map((outcome) => ('ok' in outcome ? 'ok' : outcome.status)));
    }),
  );
  expect(new Set(answers).size).toBe(SCOPES.length);
  expect(answers[1]).toContain('404');
  expect(answers[1]).toContain('403');
  expect(answers[0]).toContain('400');
});
