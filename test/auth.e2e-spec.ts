import { ApiTokenService } from '../src/auth/api-token.service.js';
import { BootstrapTokenService } from '../src/auth/bootstrap-token.service.js';
import { hashTokenValue } from '../src/auth/token-value.js';
import { createTestDatabase, databaseKinds } from './support/databases.js';
import { ADMIN_TOKEN, describeEachDatabase, startTestApp, type TestApp } from './support/test-app.js';

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  token_hash: string;
  permissions: string;
  venue_ids: string | null;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

async function tokenRows(testApp: TestApp): Promise<TokenRow[]> {
  return testApp.dataSource.query('SELECT * FROM api_tokens ORDER BY created_at, id');
}

async function tokenRow(testApp: TestApp, value: string): Promise<TokenRow> {
  const rows: TokenRow[] = await testApp.dataSource.query('SELECT * FROM api_tokens WHERE token_hash = ?', [
    hashTokenValue(value),
  ]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

/** A DATETIME column as epoch milliseconds, whichever driver read it (mysql2 gives a Date, SQLite text in UTC). */
function epochMs(value: Date | string | null): number | null {
  if (value === null) return null;
  if (value instanceof Date) return value.getTime();
  return new Date(`${value.replace(' ', 'T')}Z`).getTime();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bookkeeping write of last_used_at is fire-and-forget: wait for it to land. */
async function lastUsedOnceWritten(testApp: TestApp, value: string): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const written = epochMs((await tokenRow(testApp, value)).last_used_at);
    if (written !== null) return written;
    await sleep(20);
  }
  throw new Error('last_used_at was never written');
}

function expectUnauthorized(response: { status: number; body: unknown; headers: Record<string, string> }): void {
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ success: false, message: 'Unauthorized' });
  expect(response.headers['www-authenticate']).toBe('Bearer');
}

describeEachDatabase('authentication', (current) => {
  describe('401 Unauthorized', () => {
    it.each([
      ['no Authorization header', undefined],
      ['an empty header', ''],
      ['the scheme alone', 'Bearer'],
      ['another scheme', `Basic ${Buffer.from('admin:admin').toString('base64')}`],
      ['the token without a scheme', ADMIN_TOKEN],
      ['a token with spaces in it', `Bearer ${ADMIN_TOKEN} extra`],
      ['a token longer than 512 characters', `Bearer ${'a'.repeat(513)}`],
      ['an unknown token', 'Bearer hsp_this-token-does-not-exist-anywhere-0000000'],
      ['a near miss of a real token', `Bearer ${ADMIN_TOKEN.slice(0, -1)}X`],
    ])('for %s', async (_case, header) => {
      let req = current().http.get('/api/v1');
      if (header !== undefined) req = req.set('Authorization', header);
      expectUnauthorized(await req);
    });

    it('for a revoked token, at once even though it was just used (and cached)', async () => {
      const testApp = current();
      const token = await testApp.createToken({ permissions: ['read'] });
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);

      const revoked = await testApp.app.get(ApiTokenService).revoke(token);
      expect(revoked).not.toBeNull();
      expect((await tokenRow(testApp, token)).revoked_at).not.toBeNull();
      expectUnauthorized(await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`));
    });

    it('for a token revoked by id', async () => {
      const testApp = current();
      const token = await testApp.createToken({ permissions: ['delete'] });
      const { id } = await tokenRow(testApp, token);
      await testApp.app.get(ApiTokenService).revoke(id);
      expectUnauthorized(await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`));
    });

    it('for an expired token, while one that expires later works', async () => {
      const testApp = current();
      const expired = await testApp.createToken({ expiresAt: new Date(Date.now() - 1000) });
      const valid = await testApp.createToken({ expiresAt: new Date(Date.now() + 3_600_000) });
      expectUnauthorized(await testApp.http.get('/api/v1').set('Authorization', `Bearer ${expired}`));
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${valid}`).expect(200);
    });

    it('never echoes the presented token', async () => {
      const presented = 'hsp_presented-but-unknown-0123456789abcdefghijk';
      const response = await current().http.get('/api/v1').set('Authorization', `Bearer ${presented}`);
      expect(response.status).toBe(401);
      expect(JSON.stringify(response.headers)).not.toContain(presented);
      expect(response.text).not.toContain(presented);
    });
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])('accepts the %s scheme', async (scheme) => {
    const response = await current().http.get('/api/v1').set('Authorization', `${scheme} ${ADMIN_TOKEN}`).expect(200);
    expect(response.body).toEqual({ success: true, message: 'Server API aktif' });
  });

  it('a valid token that holds no permission is 403 Forbidden, not 401', async () => {
    const token = await current().createToken({ permissions: [] });
    const response = await current().http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(403);
    expect(response.body).toEqual({ success: false, message: 'Forbidden' });
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  describe('last_used_at', () => {
    it('is set on first use and not rewritten on the next requests', async () => {
      const testApp = current();
      const token = await testApp.createToken();
      expect((await tokenRow(testApp, token)).last_used_at).toBeNull();

      const before = Date.now();
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);
      const first = await lastUsedOnceWritten(testApp, token);
      expect(first).toBeGreaterThanOrEqual(before - 1000);
      expect(first).toBeLessThanOrEqual(Date.now() + 1000);

      await sleep(30);
      for (let i = 0; i < 3; i += 1) {
        await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);
      }
      await sleep(100);
      expect(epochMs((await tokenRow(testApp, token)).last_used_at)).toBe(first);
    });

    it('is not set by a request the token fails on', async () => {
      const testApp = current();
      const token = await testApp.createToken({ expiresAt: new Date(Date.now() - 1000) });
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(401);
      await sleep(100);
      expect((await tokenRow(testApp, token)).last_used_at).toBeNull();
    });
  });
});

describe.each(databaseKinds())('authentication without a token cache [%s]', (kind) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startTestApp(kind, { TOKEN_CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('still writes last_used_at only once within the interval', async () => {
    const token = await testApp.createToken();
    await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);
    const first = await lastUsedOnceWritten(testApp, token);
    await sleep(30);
    for (let i = 0; i < 3; i += 1) {
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);
    }
    await sleep(100);
    expect(epochMs((await tokenRow(testApp, token)).last_used_at)).toBe(first);
  });

  it('sees a revocation written straight to the database at once', async () => {
    const token = await testApp.createToken();
    await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);
    await testApp.dataSource.query('UPDATE api_tokens SET revoked_at = ? WHERE token_hash = ?', [
      '2020-01-01 00:00:00.000',
      hashTokenValue(token),
    ]);
    expectUnauthorized(await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`));
  });
});

describe.each(databaseKinds())('bootstrap token [%s]', (kind) => {
  it('stores BOOTSTRAP_TOKEN, by its hash only, as an unrestricted delete token named bootstrap', async () => {
    const testApp = await startTestApp(kind, { BOOTSTRAP_TOKEN: ADMIN_TOKEN });
    try {
      const rows = await tokenRows(testApp);
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row.name).toBe('bootstrap');
      expect(JSON.parse(row.permissions)).toEqual(['delete']);
      expect(row.venue_ids).toBeNull();
      expect(row.revoked_at).toBeNull();
      expect(row.token_hash).toBe(hashTokenValue(ADMIN_TOKEN));
      for (const column of Object.values(row)) {
        expect(String(column)).not.toContain(ADMIN_TOKEN);
        expect(String(column)).not.toContain(ADMIN_TOKEN.slice(4, 20));
      }
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(200);
    } finally {
      await testApp.close();
    }
  });

  it('is not stored when the database already holds a token, and restarts add none', async () => {
    const database = await createTestDatabase(kind);
    try {
      const first = await startTestApp(kind, { BOOTSTRAP_TOKEN: ADMIN_TOKEN }, { database });
      const existing = await tokenRows(first);
      await first.close();

      const otherToken = 'hsp_another-bootstrap-token-0123456789abcdefgh';
      const second = await startTestApp(kind, { BOOTSTRAP_TOKEN: otherToken }, { database });
      try {
        expect(await tokenRows(second)).toEqual(existing);
        expectUnauthorized(await second.http.get('/api/v1').set('Authorization', `Bearer ${otherToken}`));
        await second.http.get('/api/v1').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(200);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });

  if (kind === 'sqlite') {
    it('without BOOTSTRAP_TOKEN on SQLite, generates one token, hands it over once to be shown, and not again on restart', async () => {
      const database = await createTestDatabase(kind);
      try {
        // The entry point (main.ts) prints what takeOutcome hands over, once it listens.
        const first = await startTestApp(kind, { BOOTSTRAP_TOKEN: '' }, { database });
        let value: string;
        try {
          const outcome = first.app.get(BootstrapTokenService).takeOutcome();
          value = outcome?.kind === 'generated' ? outcome.token : '';
          expect(value).toMatch(/^hsp_[A-Za-z0-9_-]{43}$/);
          expect(first.app.get(BootstrapTokenService).takeOutcome()).toBeNull();
          const rows = await tokenRows(first);
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({ name: 'bootstrap', token_hash: hashTokenValue(value), venue_ids: null });
          expect(JSON.parse(rows[0].permissions)).toEqual(['delete']);
          await first.http.get('/api/v1').set('Authorization', `Bearer ${value}`).expect(200);
        } finally {
          await first.close();
        }

        const second = await startTestApp(kind, { BOOTSTRAP_TOKEN: '' }, { database });
        try {
          expect(await tokenRows(second)).toHaveLength(1);
          expect(second.app.get(BootstrapTokenService).takeOutcome()).toBeNull();
          await second.http.get('/api/v1').set('Authorization', `Bearer ${value}`).expect(200);
        } finally {
          await second.close();
        }
      } finally {
        await database.drop();
      }
    });
  } else {
    it('without BOOTSTRAP_TOKEN on MySQL, creates no token', async () => {
      const testApp = await startTestApp(kind, { BOOTSTRAP_TOKEN: '' });
      try {
        expect(await tokenRows(testApp)).toEqual([]);
        // The entry point then logs the command that creates one.
        expect(testApp.app.get(BootstrapTokenService).takeOutcome()).toEqual({ kind: 'missing' });
        expectUnauthorized(await testApp.http.get('/api/v1'));
      } finally {
        await testApp.close();
      }
    });
  }
});
