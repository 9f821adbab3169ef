import { ApiTokenService } from '../src/auth/api-token.service.js';
import { hashTokenValue } from '../src/auth/token-value.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Two running instances on one database, as behind a load balancer. Each caches verified tokens,
 * yet a token revoked through one instance (or written revoked by any other process, such as the
 * token CLI) is refused by the other within 1 s; a token created elsewhere is accepted within 1 s
 * even where its value had just been refused (and remembered as unknown), and at once where it was
 * created.
 */

const STATUS = '/api/v1';
/** The promise is 1 s; the rest is slack for a loaded machine. */
const WITHIN_MS = 1500;

/** Asks `testApp` every 50 ms (for at most 3 s) until the token gets `status`; returns how long that took. */
async function msUntil(testApp: TestApp, token: string, status: number, since: number): Promise<number> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const response = await testApp.http.get(STATUS).set('Authorization', `Bearer ${token}`);
    if (response.status === status) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the token never got ${status}`);
}

describe.each(databaseKinds())('token revocation across instances [%s]', (kind) => {
  let database: TestDatabase;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // The default token cache (10 s): without the revision check, instance two would trust it that long.
    one = await startTestApp(kind, {}, { database });
    two = await startTestApp(kind, {}, { database });
  }, 30_000);

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  it('a token revoked through instance one is refused by instance two within 1 s, though two had it cached', async () => {
    const token = await one.createToken({ name: 'revoked-on-one' });
    await two.http.get(STATUS).set('Authorization', `Bearer ${token}`).expect(200);
    await two.http.get(STATUS).set('Authorization', `Bearer ${token}`).expect(200);

    const revoked = await one.app.get(ApiTokenService).revoke(token);
    expect(revoked).not.toBeNull();
    const started = Date.now();
    // Refused at once where it was revoked.
    await one.http.get(STATUS).set('Authorization', `Bearer ${token}`).expect(401);
    expect(await msUntil(two, token, 401, started)).toBeLessThanOrEqual(WITHIN_MS);
    // And for good.
    for (let n = 0; n < 3; n++) await two.http.get(STATUS).set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('a token revoked by another process writing the row (as the token CLI does) is refused by both instances within 1 s', async () => {
    const token = await one.createToken({ name: 'revoked-elsewhere' });
    for (const instance of [one, two])
      await instance.http.get(STATUS).set('Authorization', `Bearer ${token}`).expect(200);

    // Straight to the database: neither instance's ApiTokenService hears of it.
    await one.dataSource.query('UPDATE api_tokens SET revoked_at = ? WHERE token_hash = ?', [
      '2020-01-01 00:00:00.000',
      hashTokenValue(token),
    ]);
    const started = Date.now();
    for (const instance of [one, two])
      expect(await msUntil(instance, token, 401, started)).toBeLessThanOrEqual(WITHIN_MS);
  });

  it('a value refused (and remembered as unknown) is accepted once it is created: at once where created, within 1 s elsewhere', async () => {
    const value = `hsp_operator-chosen-${kind}-${Date.now()}-0123456789abcdef`;
    for (const instance of [one, two]) {
      await instance.http.get(STATUS).set('Authorization', `Bearer ${value}`).expect(401);
      await instance.http.get(STATUS).set('Authorization', `Bearer ${value}`).expect(401);
    }
    await one.app
      .get(ApiTokenService)
      .create({ name: 'late', permissions: ['read'], venueIds: null, expiresAt: null }, value);
    const started = Date.now();
    await one.http.get(STATUS).set('Authorization', `Bearer ${value}`).expect(200);
    expect(await msUntil(two, value, 200, started)).toBeLessThanOrEqual(WITHIN_MS);
  });
});
