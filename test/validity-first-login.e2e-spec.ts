import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { api } from './support/api-client.js';
import { signInConsole } from './support/console.js';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { givenGuest, givenUser } from './support/factories.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'secret-1';
const HOUR = 3_600;

/**
 * Validity from the first login (`validFor`): the first accepted RADIUS login sets firstLoginAt and
 * expiresAt (then plus validFor, or an earlier stored expiresAt) in the transaction that decides it,
 * once however many logins race for it; later logins move nothing; Session-Timeout follows.
 */
describe.each(databaseKinds())('validity from the first login [%s]', (kind: DatabaseKind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let clock: ManualClock;
  let token: string;
  let nas: TestNas;

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    database = await createTestDatabase(kind);
    testApp = await startTestApp(kind, { LOG_LEVEL: 'fatal' }, { database, clock });
    token = await testApp.createToken({ permissions: ['radius'] });
    nas = await givenNas(testApp, 'venue-a');
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
  });

  const login = (username: string, password = PASSWORD) =>
    radiusCall(testApp, token, 'authorize', nas, rlmBody({ 'User-Name': username, 'User-Password': password }));
  const row = (id: string) => testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id });
  const auditOf = (id: string) =>
    testApp.dataSource
      .getRepository(AuditEventEntity)
      .find({ where: { targetId: id }, order: { occurredAt: 'ASC', id: 'ASC' } });

  it('shows validFor and firstLoginAt on the record; the first login sets expiresAt, the second moves nothing', async () => {
    const user = await givenUser(testApp, { validFor: 24 * HOUR, password: PASSWORD });
    expect(user).toMatchObject({ validFor: 86_400, firstLoginAt: null, expiresAt: null });
    const before = await api(testApp).users.get(user._id).expect(200);

    const first = await login(user.username!).expect(200);
    expect(first.body['reply:Session-Timeout']).toBe(86_400);
    const started = clock.now();
    const after = await api(testApp).users.get(user._id).expect(200);
    expect(after.body.data).toMatchObject({
      validFor: 86_400,
      firstLoginAt: started.toISOString(),
      expiresAt: new Date(started.getTime() + 86_400_000).toISOString(),
    });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const audit = await auditOf(user._id);
    expect(audit.map((event) => [event.action, event.actorType, event.changedFields])).toEqual([
      ['user.create', 'token', null],
      ['user.update', 'system', ['expiresAt', 'firstLoginAt']],
    ]);

    clock.advance(HOUR * 1000);
    const second = await login(user.username!).expect(200);
    expect(second.body['reply:Session-Timeout']).toBe(23 * HOUR);
    expect(await row(user._id)).toMatchObject({
      firstLoginAt: started,
      expiresAt: new Date(started.getTime() + 86_400_000),
    });
    expect(await auditOf(user._id)).toHaveLength(2);

    clock.advance(23 * HOUR * 1000);
    const late = await login(user.username!).expect(401);
    expect(late.body).toEqual({ 'reply:Reply-Message': { value: 'Account expired', do_xlat: false } });
  });

  it('keeps an earlier expiresAt: the first login sets only firstLoginAt of its own', async () => {
    const soon = new Date(clock.now().getTime() + 2 * HOUR * 1000);
    const user = await givenUser(testApp, { validFor: 24 * HOUR, expiresAt: soon.toISOString(), password: PASSWORD });
    const answer = await login(user.username!).expect(200);
    expect(answer.body['reply:Session-Timeout']).toBe(2 * HOUR);
    expect(await row(user._id)).toMatchObject({ firstLoginAt: clock.now(), expiresAt: soon });
  });

  it('a wrong password, a blocked user or another venue starts nothing', async () => {
    const user = await givenUser(testApp, { validFor: HOUR, password: PASSWORD });
    await login(user.username!, 'not-it').expect(401);
    expect(await row(user._id)).toMatchObject({ firstLoginAt: null, expiresAt: null });
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    await login(user.username!).expect(401);
    expect(await row(user._id)).toMatchObject({ firstLoginAt: null, expiresAt: null });
    const elsewhere = await givenUser(testApp, { validFor: HOUR, password: PASSWORD, venueIds: ['venue-b'] });
    await login(elsewhere.username!).expect(401);
    expect(await row(elsewhere._id)).toMatchObject({ firstLoginAt: null, expiresAt: null });
  });

  it('concurrent first logins (one voucher on several devices) set it once', async () => {
    const user = await givenUser(testApp, { validFor: 2 * HOUR, password: PASSWORD });
    const answers = await Promise.all(Array.from({ length: 8 }, () => login(user.username!)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.body['reply:Session-Timeout']))).toEqual(new Set([2 * HOUR]));
    const stored = await row(user._id);
    expect(stored.firstLoginAt).toEqual(clock.now());
    expect(stored.version).toBe(2);
    expect((await auditOf(user._id)).filter((event) => event.action === 'user.update')).toHaveLength(1);
  });

  it('PUT sets or clears validFor; after the first login a new validFor moves nothing', async () => {
    const user = await givenUser(testApp, { password: PASSWORD });
    expect(user).toMatchObject({ validFor: null, firstLoginAt: null });
    const set = await api(testApp).users.update(user._id, { validFor: HOUR }).expect(200);
    expect(set.body.data.validFor).toBe(HOUR);
    await login(user.username!).expect(200);
    const expiresAt = (await row(user._id)).expiresAt;
    await api(testApp)
      .users.update(user._id, { validFor: 5 * HOUR })
      .expect(200);
    await login(user.username!).expect(200);
    expect((await row(user._id)).expiresAt).toEqual(expiresAt);
    const cleared = await api(testApp).users.update(user._id, { validFor: null }).expect(200);
    expect(cleared.body.data).toMatchObject({ validFor: null, expiresAt: expiresAt!.toISOString() });
  });

  it("the console's user page shows the validity and, once started, the first login", async () => {
    const user = await givenUser(testApp, { validFor: 24 * HOUR, password: PASSWORD });
    const { console } = await signInConsole(testApp, { permissions: ['read'], venueIds: ['venue-a'] });
    const page = `/admin/users/${user._id}?venueId=venue-a`;
    const before = await console.get(page);
    expect(before.text).toContain('24 h from the first login');
    expect(before.text).toContain('Not yet: the validity starts at the first login');
    await login(user.username!).expect(200);
    const after = await console.get(page);
    expect(after.text).not.toContain('Not yet');
    expect(after.text).toContain(`datetime="${clock.now().toISOString()}"`);
  });

  it('refuses a validFor that is not a whole number of seconds from a minute to a year, or on a guest', async () => {
    for (const validFor of [59, 366 * 86_400 + 1, 1.5, '3600', true, -60]) {
      const answer = await api(testApp)
        .users.create({ ...userBodyOf(), validFor })
        .expect(400);
      expect(answer.body.errors?.map((error: { field: string }) => error.field)).toEqual(['validFor']);
    }
    const guest = await api(testApp)
      .users.create({ name: 'Guest', loginMethod: 'guest', venueIds: ['venue-a'], validFor: HOUR })
      .expect(400);
    expect(guest.body.errors).toEqual([
      { field: 'validFor', message: 'validFor applies to username_password users only' },
    ]);
    const existing = await givenGuest(testApp);
    await api(testApp).users.update(existing._id, { validFor: HOUR }).expect(400);
  });
});

let bodies = 0;
function userBodyOf(): Record<string, unknown> {
  bodies += 1;
  return {
    name: `Voucher ${bodies}`,
    loginMethod: 'username_password',
    username: `voucher-${bodies}-${Date.now().toString(36)}`,
    password: PASSWORD,
    venueIds: ['venue-a'],
  };
}
