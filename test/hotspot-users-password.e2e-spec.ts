import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { verify as verifyPassword } from '@node-rs/argon2';
import { AuthorizeService } from '../src/radius/authorize.service.js';
import type { VerifiedPasswords } from '../src/radius/verified-passwords.js';
import { IdempotencyKeyEntity } from '../src/idempotency/entities/idempotency-key.entity.js';
import { runCliWithInput } from '../src/testing/cli.js';
import { api, USERS_PATH } from './support/api-client.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from './support/build.js';
import { CLI_MAIN, contextRuntime, spawnCliWithInput } from './support/cli-io.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { forbiddenNaming, FORBIDDEN, NOT_FOUND, sleep, validationError } from './support/expected.js';
import { givenGuest, givenUser, givenUserWithSessions } from './support/factories.js';
import { classUserId, givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { jobsOf, sessionRows } from './support/rows.js';
import { describeEachDatabase, startTestApp, type TestApp } from './support/test-app.js';

const RESET = 'Kullanıcının şifresi başarıyla değiştirildi';
const EXPIRED = { success: false, message: 'Expired users cannot be edited' };
const GENERATED = /^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/;
/** The password every factory user starts with (test/support/factories.ts). */
const FIRST_PASSWORD = 'secret-1';

interface ResetOptions {
  token?: string;
  venueId?: string;
  ifMatch?: string;
  idempotencyKey?: string;
}

function reset(testApp: TestApp, id: string, body: unknown, options: ResetOptions = {}) {
  const query = options.venueId === undefined ? '' : `?venueId=${options.venueId}`;
  let request = testApp.http
    .post(`${USERS_PATH}/${id}/password${query}`)
    .set('Authorization', `Bearer ${options.token ?? testApp.adminToken}`);
  if (options.ifMatch !== undefined) request = request.set('If-Match', options.ifMatch);
  if (options.idempotencyKey !== undefined) request = request.set('Idempotency-Key', options.idempotencyKey);
  return request.send(body as object);
}

/** Whether an instance's authorize would skip argon2id for this password (its verified-password cache). */
function cached(testApp: TestApp, userId: string, hash: string, password: string): boolean {
  const service: unknown = testApp.app.get(AuthorizeService);
  const { verified } = service as { verified: VerifiedPasswords };
  return verified.has(userId, hash, password, Date.now());
}

async function storedHash(testApp: TestApp, id: string): Promise<string> {
  return (await testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id })).passwordHash!;
}

function auditOf(testApp: TestApp, id: string) {
  return testApp.dataSource
    .getRepository(AuditEventEntity)
    .find({ where: { targetId: id, action: 'user.password-reset' }, order: { occurredAt: 'ASC' } });
}

describeEachDatabase('POST /api/v1/hotspot-users/:id/password', (current) => {
  it('sets a typed password: the user as GET answers it, a new ETag, no password in any answer', async () => {
    const testApp = current();
    const user = await givenUser(testApp);
    await sleep(5);
    const response = await reset(testApp, user._id, { password: 'new-secret-2' }).expect(200);
    expect(response.body).toEqual({
      success: true,
      message: RESET,
      data: { ...user, updatedAt: expect.any(String) },
    });
    expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(user.updatedAt));
    expect(response.headers.etag).toBe('"v2"');
    expect(response.headers.link).toBeUndefined();
    const got = await api(testApp).users.get(user._id).expect(200);
    expect(got.headers.etag).toBe('"v2"');
    expect(got.body.data).toEqual(response.body.data);
    expect(JSON.stringify(got.body)).not.toContain('new-secret-2');

    const hash = await storedHash(testApp, user._id);
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'new-secret-2')).toBe(true);
    expect(await verifyPassword(hash, FIRST_PASSWORD)).toBe(false);
  });

  it('generates a password, answers it once, and keeps it out of the audit row and every later answer', async () => {
    const testApp = current();
    const user = await givenUser(testApp);
    const response = await reset(testApp, user._id, { generate: true }).expect(200);
    const { password } = response.body as { password: string };
    expect(password).toMatch(GENERATED);
    expect(response.body).toEqual({ success: true, message: RESET, data: expect.any(Object), password });
    expect(await verifyPassword(await storedHash(testApp, user._id), password)).toBe(true);

    const later = [
      await api(testApp).users.get(user._id),
      await api(testApp).users.list({ venueId: 'venue-a', q: user.username! }),
      await api(testApp).users.update(user._id, { name: 'Renamed' }),
    ];
    for (const answer of later) {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain(password);
    }

    const events = await auditOf(testApp, user._id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorType: 'token',
      action: 'user.password-reset',
      targetType: 'user',
      targetId: user._id,
      venueIds: ['venue-a'],
      outcome: 'success',
    });
    expect(JSON.stringify(events[0])).not.toContain(password);
  });

  it('refuses a body with neither, both, unknown or mistyped fields, naming the field, and changes nothing', async () => {
    const testApp = current();
    const user = await givenUser(testApp);
    const before = await storedHash(testApp, user._id);
    const cases: Array<[unknown, string[]]> = [
      [{}, ['password']],
      [{ endSessions: true }, ['password']],
      [{ password: 'new-secret-2', generate: true }, ['password']],
      [{ generate: false }, ['generate']],
      [{ generate: 'true' }, ['generate']],
      [{ generate: null }, ['generate']],
      [{ password: 'abc' }, ['password']],
      [{ password: 'x'.repeat(129) }, ['password']],
      [{ password: 12345 }, ['password']],
      [{ password: 'new-secret-2', endSessions: 'yes' }, ['endSessions']],
      [{ password: 'new-secret-2', status: 'blocked' }, ['status']],
    ];
    for (const [body, fields] of cases) {
      const response = await reset(testApp, user._id, body);
      expect({ body, status: response.status, answer: response.body }).toEqual({
        body,
        status: 400,
        answer: validationError(...fields),
      });
    }
    const array = await reset(testApp, user._id, [{ password: 'new-secret-2' }]);
    expect(array.status).toBe(400);
    expect(await storedHash(testApp, user._id)).toBe(before);
    // PUT keeps refusing the password, as the v1 contract says.
    const put = await api(testApp).users.update(user._id, { password: 'new-secret-2' });
    expect({ status: put.status, body: put.body }).toEqual({ status: 400, body: validationError('password') });
    expect(await storedHash(testApp, user._id)).toBe(before);
  });

  it('refuses a guest (no password) with a 400 naming the field sent, and an expired user with the 409 of PUT', async () => {
    const testApp = current();
    const guest = await givenGuest(testApp);
    for (const [body, field] of [
      [{ password: 'new-secret-2' }, 'password'],
      [{ generate: true }, 'generate'],
    ] as const) {
      const response = await reset(testApp, guest._id, body);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: {
          success: false,
          message: 'Validation error',
          errors: [{ field, message: `${field} applies to username_password users only` }],
        },
      });
    }
    const user = await givenUser(testApp);
    await api(testApp).users.expire(user._id).expect(200);
    const before = await storedHash(testApp, user._id);
    const expired = await reset(testApp, user._id, { generate: true });
    expect({ status: expired.status, body: expired.body }).toEqual({ status: 409, body: EXPIRED });
    expect(await storedHash(testApp, user._id)).toBe(before);
    expect(await auditOf(testApp, guest._id)).toEqual([]);
  });

  it('keeps the venue rules and permissions of PUT', async () => {
    const testApp = current();
    const inA = await givenUser(testApp, { venueIds: ['venue-a'] });
    const inB = await givenUser(testApp, { venueIds: ['venue-b'] });
    const inBoth = await givenUser(testApp, { venueIds: ['venue-a', 'venue-b'] });
    const writerA = await testApp.createToken({ permissions: ['read', 'write'], venueIds: ['venue-a'] });
    const reader = await testApp.createToken({ permissions: ['read'] });
    const body = { password: 'new-secret-2' };
    const answers = {
      outOfScope: await reset(testApp, inB._id, body, { token: writerA }),
      partly: await reset(testApp, inBoth._id, body, { token: writerA }),
      foreignContext: await reset(testApp, inA._id, body, { token: writerA, venueId: 'venue-b' }),
      wrongContext: await reset(testApp, inB._id, body, { venueId: 'venue-a' }),
      readOnly: await reset(testApp, inA._id, body, { token: reader }),
      unknown: await reset(testApp, 'no-such-user', body),
      oddId: await reset(testApp, '%E2%80%AE..%2F', body),
    };
    const seen = Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, { status: r.status, body: r.body }]));
    expect(seen).toEqual({
      outOfScope: { status: 404, body: NOT_FOUND },
      partly: { status: 403, body: forbiddenNaming('venueIds') },
      foreignContext: { status: 403, body: forbiddenNaming('venueId') },
      wrongContext: { status: 404, body: NOT_FOUND },
      readOnly: { status: 403, body: FORBIDDEN },
      unknown: { status: 404, body: NOT_FOUND },
      oddId: { status: 404, body: NOT_FOUND },
    });
    for (const user of [inA, inB, inBoth]) {
      expect(await verifyPassword(await storedHash(testApp, user._id), FIRST_PASSWORD)).toBe(true);
    }
    await reset(testApp, inA._id, body, { token: writerA, venueId: 'venue-a' }).expect(200);
  });

  it('honours If-Match as PUT does: a stale ETag is a 412 and changes nothing', async () => {
    const testApp = current();
    const user = await givenUser(testApp);
    await api(testApp).users.update(user._id, { name: 'Changed' }).expect(200);
    const before = await storedHash(testApp, user._id);
    const stale = await reset(testApp, user._id, { generate: true }, { ifMatch: '"v1"' });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ success: false, message: expect.any(String) });
    const malformed = await reset(testApp, user._id, { generate: true }, { ifMatch: 'v2' });
    expect({ status: malformed.status, body: malformed.body }).toEqual({
      status: 400,
      body: validationError('If-Match'),
    });
    expect(await storedHash(testApp, user._id)).toBe(before);
    const fresh = await reset(testApp, user._id, { password: 'new-secret-2' }, { ifMatch: '"v2"' }).expect(200);
    expect(fresh.headers.etag).toBe('"v3"');
  });

  it('leaves running sessions alone by default', async () => {
    const testApp = current();
    const { user, sessions } = await givenUserWithSessions(testApp, { venues: ['venue-a'], sessions: 2 });
    const response = await reset(testApp, user._id, { password: 'new-secret-2', endSessions: false }).expect(200);
    expect(response.headers.link).toBeUndefined();
    expect((await sessionRows(testApp, user._id)).map((row) => row.status)).toEqual(sessions.map(() => 'active'));
    expect(await jobsOf(testApp, user._id)).toEqual([]);
  });

  it('with endSessions ends the sessions as a block does: a job of reason password-reset, named in Link', async () => {
    const testApp = current();
    const { user, sessions } = await givenUserWithSessions(testApp, { venues: ['venue-a', 'venue-b'] });
    const response = await reset(testApp, user._id, { generate: true, endSessions: true }).expect(200);
    const jobs = await jobsOf(testApp, user._id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ reason: 'password-reset', status: 'pending', username: user.username });
    expect(jobs[0].sessions.map((session) => session.id).sort()).toEqual(sessions.map((s) => s.id).sort());
    expect(response.headers.link).toBe(`</api/v1/unauth-jobs/${jobs[0].id}>; rel="unauth-job"`);
    expect((await sessionRows(testApp, user._id)).every((row) => row.status !== 'active')).toBe(true);
    expect(response.body.data.status).toBe('active');
    const job = await testApp.http
      .get(`/api/v1/unauth-jobs/${jobs[0].id}`)
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .expect(200);
    expect(job.body.data.reason).toBe('password-reset');

    // As a block: the job is written even when no session was running.
    const idle = await givenUser(testApp);
    const quiet = await reset(testApp, idle._id, { password: 'new-secret-2', endSessions: true }).expect(200);
    const idleJobs = await jobsOf(testApp, idle._id);
    expect(idleJobs).toEqual([expect.objectContaining({ reason: 'password-reset', sessions: [] })]);
    expect(quiet.headers.link).toContain(idleJobs[0].id);
  });

  it('with an Idempotency-Key replays the answer without the generated password, which is never stored', async () => {
    const testApp = current();
    const user = await givenUser(testApp);
    const key = `reset-${user._id}`;
    const first = await reset(testApp, user._id, { generate: true }, { idempotencyKey: key }).expect(200);
    const { password } = first.body as { password: string };
    expect(password).toMatch(GENERATED);
    const hash = await storedHash(testApp, user._id);

    const replay = await reset(testApp, user._id, { generate: true }, { idempotencyKey: key }).expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual({ success: true, message: RESET, data: first.body.data });
    expect(replay.headers.etag).toBe(first.headers.etag);
    expect(await storedHash(testApp, user._id)).toBe(hash);

    const kept = await testApp.dataSource.getRepository(IdempotencyKeyEntity).find();
    expect(kept.length).toBeGreaterThan(0);
    expect(JSON.stringify(kept)).not.toContain(password);
    const other = await reset(testApp, user._id, { password: 'new-secret-2' }, { idempotencyKey: key });
    expect(other.status).toBe(422);
    expect(await auditOf(testApp, user._id)).toHaveLength(1);
  });

  it('takes effect at the next login: the cached old password is refused, the new one accepted at once', async () => {
    const testApp = current();
    const radius = await testApp.createToken({ permissions: ['radius'] });
    const nas = await givenNas(testApp, 'venue-a');
    const user = await givenUser(testApp);
    const login = (password: string) =>
      radiusCall(
        testApp,
        radius,
        'authorize',
        nas,
        rlmBody({ 'User-Name': user.username!, 'User-Password': password }),
      );
    // The second login finds the old password in the verified-password cache.
    const oldHash = await storedHash(testApp, user._id);
    await login(FIRST_PASSWORD).expect(200);
    expect(cached(testApp, user._id, oldHash, FIRST_PASSWORD)).toBe(true);
    await login(FIRST_PASSWORD).expect(200);

    await reset(testApp, user._id, { password: 'new-secret-2' }).expect(200);
    const newHash = await storedHash(testApp, user._id);
    expect(cached(testApp, user._id, newHash, FIRST_PASSWORD)).toBe(false);
    expect((await login(FIRST_PASSWORD)).status).toBe(401);
    const renewed = await login('new-secret-2').expect(200);
    expect(classUserId(renewed.body['reply:Class'].value)).toBe(user._id);
  });

  describe('hotspot user set-password', () => {
    const run = (input: string | undefined, ...argv: string[]) =>
      runCliWithInput(contextRuntime(current().app), input, 'user', 'set-password', ...argv);

    it('--generate prints the new password alone on stdout, once; the audit row names the command line', async () => {
      const testApp = current();
      const user = await givenUser(testApp);
      const result = await run(undefined, user._id, '--generate');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}\n$/);
      const password = result.stdout.trim();
      expect(result.stderr).toContain(`Password of user ${user._id}`);
      expect(result.stderr).not.toContain(password);
      expect(await verifyPassword(await storedHash(testApp, user._id), password)).toBe(true);
      const events = await auditOf(testApp, user._id);
      expect(events).toEqual([expect.objectContaining({ actorType: 'cli', actorId: null })]);
      expect(JSON.stringify(events)).not.toContain(password);
    });

    it('--password-stdin sets the typed password and prints none; --end-sessions ends the sessions', async () => {
      const testApp = current();
      const { user } = await givenUserWithSessions(testApp);
      const result = await run('typed-secret-3\n', user._id, '--password-stdin', '--end-sessions', '--json');
      expect(result.code).toBe(0);
      const printed = JSON.parse(result.stdout) as Record<string, unknown>;
      const jobs = await jobsOf(testApp, user._id);
      expect(printed).toEqual({
        id: user._id,
        username: user.username,
        endedSessions: 1,
        unauthJobIds: [jobs[0].id],
        password: null,
      });
      expect(jobs[0].reason).toBe('password-reset');
      expect(result.stdout + result.stderr).not.toContain('typed-secret-3');
      expect(await verifyPassword(await storedHash(testApp, user._id), 'typed-secret-3')).toBe(true);
    });

    it('is bad usage without exactly one of the two, and fails for an unknown, guest or expired user', async () => {
      const testApp = current();
      const user = await givenUser(testApp);
      const guest = await givenGuest(testApp);
      const before = await storedHash(testApp, user._id);
      expect((await run(undefined, user._id)).code).toBe(2);
      expect((await run('x-secret-4', user._id, '--generate', '--password-stdin')).code).toBe(2);
      expect((await run('abc', user._id, '--password-stdin')).code).toBe(2);
      expect((await run('', user._id, '--password-stdin')).code).toBe(2);
      expect(await storedHash(testApp, user._id)).toBe(before);
      const unknown = await run(undefined, 'no-such-user', '--generate');
      expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'No hotspot user has the id "no-such-user".\n' });
      const guestRun = await run(undefined, guest._id, '--generate');
      expect(guestRun).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Refused: generate applies to username_password users only\n',
      });
      await api(testApp).users.expire(user._id).expect(200);
      const expired = await run(undefined, user._id, '--generate');
      expect(expired).toEqual({ code: 1, stdout: '', stderr: 'Refused: Expired users cannot be edited\n' });
    });
  });
});

/** The DATABASE_URL a test app runs on, so a second (CLI) process can open the same database. */
function databaseUrlOf(testApp: TestApp): string {
  const options = testApp.dataSource.options as { type: string; database?: string; url?: string };
  if (options.type === 'better-sqlite3') return `sqlite:${options.database}`;
  return options.type === 'mariadb' ? options.url!.replace(/^mysql:/, 'mariadb:') : options.url!;
}

/** Two instances on one database: a reset through one is seen by the other's authorize at once. */
describe.each(databaseKinds())('password reset across instances [%s]', (kind) => {
  let database: TestDatabase | undefined;
  let one: TestApp;
  let two: TestApp;
  let nasOnOne: TestNas;
  const log: string[] = [];
  let cwd: string | undefined;

  beforeAll(async () => {
    ensureBuilt([CLI_MAIN]);
    database = await createTestDatabase(kind);
    one = await startTestApp(kind, {}, { database });
    // The instance that resets logs everything it would at debug level: the password must be in none of it.
    two = await startTestApp(
      kind,
      { LOG_LEVEL: 'debug' },
      { database, logDestination: { write: (line) => log.push(line) } },
    );
    nasOnOne = await givenNas(one, 'venue-a');
  }, 180_000);

  afterAll(async () => {
    if (cwd !== undefined) rmSync(cwd, { recursive: true, force: true });
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  it("forgets the old password in every instance's verified-password cache", async () => {
    const radius = await one.createToken({ permissions: ['radius'] });
    const user = await givenUser(one);
    const login = (app: TestApp, password: string) =>
      radiusCall(
        app,
        radius,
        'authorize',
        nasOnOne,
        rlmBody({ 'User-Name': user.username!, 'User-Password': password }),
      );
    const oldHash = await storedHash(one, user._id);
    for (const app of [one, two]) {
      await login(app, FIRST_PASSWORD).expect(200);
      await login(app, FIRST_PASSWORD).expect(200);
      expect(cached(app, user._id, oldHash, FIRST_PASSWORD)).toBe(true);
    }
    const generated = (await reset(two, user._id, { generate: true }).expect(200)).body as { password: string };
    for (const app of [one, two]) {
      expect((await login(app, FIRST_PASSWORD)).status).toBe(401);
      await login(app, generated.password).expect(200);
    }
    expect(log.join('')).toContain(user._id);
    expect(log.join('')).not.toContain(generated.password);
  });

  it('hotspot user set-password, the executable, reads a piped password; every instance takes it at once', async () => {
    const radius = await one.createToken({ permissions: ['radius'] });
    const user = await givenUser(one);
    const login = (app: TestApp, password: string) =>
      radiusCall(
        app,
        radius,
        'authorize',
        nasOnOne,
        rlmBody({ 'User-Name': user.username!, 'User-Password': password }),
      );
    for (const app of [one, two]) await login(app, FIRST_PASSWORD).expect(200);
    cwd = mkdtempSync(join(tmpdir(), 'hotspot-user-cli-'));
    const result = await spawnCliWithInput(
      { DATABASE_URL: databaseUrlOf(one) },
      cwd,
      'piped-secret-7\n',
      'user',
      'set-password',
      user._id,
      '--password-stdin',
    );
    expect(result).toEqual({ code: 0, stdout: `Password of user ${user._id} (${user.username}) reset.\n`, stderr: '' });
    for (const app of [one, two]) {
      expect((await login(app, FIRST_PASSWORD)).status).toBe(401);
      await login(app, 'piped-secret-7').expect(200);
    }
  });
});

describe.each(databaseKinds())('console: reset a user password [%s]', (kind) => {
  const A = 'pw-venue-a';
  const B = 'pw-venue-b';
  let testApp: TestApp;
  let writerA: ConsoleBrowser;
  let reader: ConsoleBrowser;

  const etagOf = (html: string) => (/name="etag" value="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&quot;/g, '"');

  beforeAll(async () => {
    testApp = await startTestApp(kind);
    ({ console: writerA } = await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: [A] }));
    ({ console: reader } = await signInConsole(testApp, { permissions: ['read'] }));
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('offers the action on the page of a username_password user to a writer, not to a reader nor for a guest', async () => {
    const user = await givenUser(testApp, { venueIds: [A] });
    const guest = await givenGuest(testApp, { venueIds: [A] });
    expect((await writerA.get(`/admin/users/${user._id}`)).text).toContain(`/admin/users/${user._id}/password`);
    expect((await reader.get(`/admin/users/${user._id}`)).text).not.toContain('/password');
    expect((await writerA.get(`/admin/users/${guest._id}`)).text).not.toContain('/password');
    const guestPage = await writerA.get(`/admin/users/${guest._id}/password`);
    expect(guestPage.status).toBe(409);
    expect(guestPage.text).toContain('logs in without a password');
  });

  it('generates a password, shows it once with a copy button, and ends the sessions when asked', async () => {
    const { user } = await givenUserWithSessions(testApp, { venues: [A] });
    const form = await writerA.get(`/admin/users/${user._id}/password?venueId=${A}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="mode" value="generate"');
    const posted = await writerA.post(`/admin/users/${user._id}/password`, {
      context: A,
      etag: etagOf(form.text),
      mode: 'generate',
      password: '',
      endSessions: 'yes',
    });
    // Post/Redirect/Get: the result is a page of its own, which a reload loads again.
    expect(posted.status).toBe(303);
    const done = await writerA.follow(posted);
    expect(done.status).toBe(200);
    const password = /id="generated-password" class="secret">([^<]+)</.exec(done.text)?.[1] ?? '';
    expect(password).toMatch(GENERATED);
    expect(done.text).toContain('data-copy="generated-password"');
    expect(await verifyPassword(await storedHash(testApp, user._id), password)).toBe(true);
    expect(await jobsOf(testApp, user._id)).toEqual([expect.objectContaining({ reason: 'password-reset' })]);
    const events = await auditOf(testApp, user._id);
    expect(events).toEqual([expect.objectContaining({ actorType: 'operator' })]);
    expect(JSON.stringify(events)).not.toContain(password);
    // Shown once: no later page has it.
    for (const path of [`/admin/users/${user._id}`, `/admin/users/${user._id}/password`, '/admin/audit']) {
      expect((await writerA.get(path)).text).not.toContain(password);
    }
  });

  it('sets a typed password and goes back to the user with a notice; a problem shows the form again', async () => {
    const user = await givenUser(testApp, { venueIds: [A] });
    const form = await writerA.get(`/admin/users/${user._id}/password`);
    const etag = etagOf(form.text);
    const short = await writerA.post(`/admin/users/${user._id}/password`, {
      context: '',
      etag,
      mode: 'type',
      password: 'ab',
    });
    expect(short.status).toBe(422);
    expect(short.text).toContain('role="alert"');
    expect(short.text).not.toContain('value="ab"');
    const done = await writerA.post(`/admin/users/${user._id}/password`, {
      context: '',
      etag,
      mode: 'type',
      password: 'typed-secret-5',
    });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/admin/users/${user._id}?notice=notice.guestPassword.reset`);
    expect((await writerA.get(done.headers.location)).text).toContain('The password was reset.');
    expect(await verifyPassword(await storedHash(testApp, user._id), 'typed-secret-5')).toBe(true);
    // The ETag the form carried is stale now: the page again, nothing changed.
    const stale = await writerA.post(`/admin/users/${user._id}/password`, {
      context: '',
      etag,
      mode: 'type',
      password: 'typed-secret-6',
    });
    expect(stale.status).toBe(412);
    expect(stale.text).toContain('changed by someone else');
    expect(await verifyPassword(await storedHash(testApp, user._id), 'typed-secret-5')).toBe(true);
  });

  it('refuses a read-only operator, a user of another venue, a tampered form and odd input, never with a 500', async () => {
    const user = await givenUser(testApp, { venueIds: [A] });
    const other = await givenUser(testApp, { venueIds: [B] });
    const before = await storedHash(testApp, other._id);
    const form = { context: '', etag: '"v1"', mode: 'generate' };
    expect((await reader.get(`/admin/users/${user._id}/password`)).status).toBe(403);
    expect((await reader.post(`/admin/users/${user._id}/password`, form)).status).toBe(403);
    const foreign = await writerA.get(`/admin/users/${other._id}/password`);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(other.username!);
    expect((await writerA.post(`/admin/users/${other._id}/password`, form)).status).toBe(404);
    expect((await writerA.post(`/admin/users/${other._id}/password`, { ...form, context: B })).status).toBe(403);
    expect((await writerA.get(`/admin/users/${user._id}/password?venueId=${B}`)).status).toBe(403);
    expect(await storedHash(testApp, other._id)).toBe(before);
    const odd = [
      await writerA.post(`/admin/users/${user._id}/password`, { ...form, etag: 'nonsense' }),
      await writerA.post(`/admin/users/${user._id}/password`, { ...form, context: '../x' }),
      await writerA.post(`/admin/users/${user._id}/password`, { ...form, mode: 'type', password: 'p'.repeat(5000) }),
      await writerA.post(`/admin/users/${'x'.repeat(300)}/password`, form),
      await writerA.get(`/admin/users/%E2%80%AE/password`),
    ];
    expect(odd.map((response) => response.status)).toEqual([400, 400, 422, 404, 404]);
  });
});
