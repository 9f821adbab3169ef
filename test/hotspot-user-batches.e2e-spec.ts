import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { BatchPasswordEntity } from '../src/batches/entities/batch-password.entity.js';
import { UserBatchEntity } from '../src/batches/entities/user-batch.entity.js';
import type { BatchCardsDto, BatchDetailDto } from '../src/batches/dto/batch.response.js';
import { PASSWORD_ALPHABET } from '../src/batches/batch.rules.js';
import { BatchesService } from '../src/batches/batches.service.js';
import type { HotspotUserDto } from '../src/hotspot-users/dto/hotspot-user.response.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { IdempotencyKeyEntity } from '../src/idempotency/entities/idempotency-key.entity.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { contextRuntime, runCli } from './support/cli-io.js';
import { givenUser } from './support/factories.js';
import { givenNas, radiusCall, rlmBody } from './support/radius.js';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRETS_KEY = 'a'.repeat(64);
const BATCHES = '/api/v1/hotspot-user-batches';
const HOUR = 60 * 60 * 1000;

for (const kind of databaseKinds()) {
  describe(`POST/GET /api/v1/hotspot-user-batches [${kind}]`, () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00.000Z'));
    let testApp: TestApp;
    let writer: string;
    let reader: string;
    let venueB: string;

    beforeAll(async () => {
      testApp = await startTestApp(kind, { SECRETS_KEY }, { clock });
      writer = await testApp.createToken({ permissions: ['write'], venueIds: ['venue-a'] });
      reader = await testApp.createToken({ permissions: ['read'], venueIds: ['venue-a'] });
      venueB = await testApp.createToken({ permissions: ['write'], venueIds: ['venue-b'] });
    }, 60_000);
    afterAll(() => testApp?.close());

    const post = (body: object, token = writer, key?: string) => {
      const request = testApp.http.post(BATCHES).set('Authorization', `Bearer ${token}`);
      if (key !== undefined) request.set('Idempotency-Key', key);
      return request.send(body);
    };
    const get = (path: string, token = writer) => testApp.http.get(path).set('Authorization', `Bearer ${token}`);
    const reveal = (id: string, token = writer) =>
      testApp.http.post(`${BATCHES}/${id}/reveal`).set('Authorization', `Bearer ${token}`);
    const expiresAt = () => new Date(clock.now().getTime() + 30 * 24 * HOUR).toISOString();
    const auditOf = (id: string) =>
      testApp.dataSource
        .getRepository(AuditEventEntity)
        .find({ where: { targetId: id }, order: { occurredAt: 'ASC' } });

    it('creates 50 accounts in one venue: usernames of the prefix, one batch.create audit row, no password in the answer', async () => {
      const response = await post({
        venueId: 'venue-a',
        count: 50,
        prefix: 'conf-',
        label: 'Conference',
        expiresAt: expiresAt(),
      });
      expect(response.status).toBe(201);
      const batch = response.body.data as BatchDetailDto;
      expect(response.headers.location).toBe(`/api/v1/hotspot-user-batches/${batch.id}`);
      expect(batch).toMatchObject({
        venueId: 'venue-a',
        count: 50,
        label: 'Conference',
        passwordLength: 10,
        passwords: 'available',
      });
      expect(batch.accounts).toHaveLength(50);
      for (const account of batch.accounts) expect(account.username).toMatch(/^conf-[a-z2-9]{6}$/);
      expect(new Set(batch.accounts.map((account) => account.username)).size).toBe(50);
      expect(JSON.stringify(response.body)).not.toMatch(/password"\s*:\s*"/);
      const users = await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ batchId: batch.id });
      expect(users).toHaveLength(50);
      expect(users.every((user) => user.expiresAt?.toISOString() === batch.expiresAt)).toBe(true);
      const audit = await auditOf(batch.id);
      expect(audit.map((event) => [event.action, event.targetType, event.actorType])).toEqual([
        ['batch.create', 'batch', 'token'],
      ]);
      // The user records show the batch; the list filters by it.
      const list = await get(`/api/v1/hotspot-users?venueId=venue-a&batchId=${batch.id}&limit=100`).expect(200);
      expect(list.body.pagination.total).toBe(50);
      expect((list.body.data as HotspotUserDto[]).every((user) => user.batchId === batch.id)).toBe(true);
      const other = await givenUser(testApp, { venueIds: ['venue-a'] });
      expect(other.batchId).toBeNull();
    });

    it('lists a venue without its batch accounts on batchAccounts=exclude (an addition); v1 still lists every user', async () => {
      const venue = 'bx-venue';
      const token = await testApp.createToken({ permissions: ['read', 'write'], venueIds: [venue] });
      const first = await givenUser(testApp, { name: 'Before the batch', venueIds: [venue] }, { token });
      const created = await post({ venueId: venue, count: 4, prefix: 'bx-', expiresAt: expiresAt() }, token);
      expect(created.status).toBe(201);
      const second = await givenUser(testApp, { name: 'After the batch', venueIds: [venue] }, { token });
      const blocked = await testApp.http
        .put(`/api/v1/hotspot-users/${second._id}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ status: 'blocked' });
      expect(blocked.status).toBe(200);
      const page = async (query: string) => {
        const response = await get(`/api/v1/hotspot-users?venueId=${venue}${query}`, token).expect(200);
        const body = response.body as { data: HotspotUserDto[]; pagination: { total: number } };
        return { names: body.data.map((user) => user.name), total: body.pagination.total };
      };
      // v1's answer is unchanged: every user, the batch's accounts among them.
      expect((await page('')).total).toBe(6);
      expect((await page('&batchAccounts=include')).total).toBe(6);
      expect(await page('&batchAccounts=exclude')).toEqual({
        names: ['After the batch', 'Before the batch'],
        total: 2,
      });
      expect(await page('&batchAccounts=exclude&limit=1&page=2')).toEqual({ names: ['Before the batch'], total: 2 });
      expect(await page('&batchAccounts=exclude&page=3&limit=1')).toEqual({ names: [], total: 2 });
      expect(await page('&batchAccounts=exclude&status=active')).toEqual({ names: ['Before the batch'], total: 1 });
      expect(await page('&batchAccounts=exclude&status=blocked')).toEqual({ names: ['After the batch'], total: 1 });
      expect((await page('&status=active')).total).toBe(5);
      expect(first.batchId).toBeNull();
      for (const query of ['&batchAccounts=exclude&q=bx', `&batchAccounts=exclude&batchId=${created.body.data.id}`]) {
        const refused = await get(`/api/v1/hotspot-users?venueId=${venue}${query}`, token).expect(400);
        expect(JSON.stringify(refused.body)).toContain('batchAccounts=exclude cannot be combined with q or batchId');
      }
      await get(`/api/v1/hotspot-users?venueId=${venue}&batchAccounts=none`, token).expect(400);
    });

    it('reveals the passwords (write, audited, opens the 24 h window); each logs in through the RADIUS back end', async () => {
      const created = (
        await post({ venueId: 'venue-a', count: 5, passwordLength: 12, expiresAt: expiresAt() }).expect(201)
      ).body.data as BatchDetailDto;
      await reveal(created.id, reader).expect(403);
      const response = await reveal(created.id).expect(200);
      const { batch, cards } = response.body.data as BatchCardsDto;
      expect(cards).toHaveLength(5);
      for (const card of cards) {
        expect(card.password).toHaveLength(12);
        expect([...card.password].every((character) => PASSWORD_ALPHABET.includes(character))).toBe(true);
      }
      expect(batch.firstRevealedAt).toBe(clock.now().toISOString());
      expect(batch.passwordsShownUntil).toBe(new Date(clock.now().getTime() + 24 * HOUR).toISOString());
      const audit = await auditOf(created.id);
      expect(audit.map((event) => event.action)).toEqual(['batch.create', 'batch.reveal']);
      expect(JSON.stringify(audit)).not.toContain(cards[0].password);

      const radius = await testApp.createToken({ permissions: ['radius'] });
      const nas = await givenNas(testApp, 'venue-a');
      for (const card of cards.slice(0, 2)) {
        const login = await radiusCall(
          testApp,
          radius,
          'authorize',
          nas,
          rlmBody({ 'User-Name': card.username!, 'User-Password': card.password }),
        );
        expect(login.status).toBe(200);
      }
    });

    it('refuses the passwords 24 hours after the first reveal with 410, and erases them', async () => {
      const created = (await post({ venueId: 'venue-a', count: 3, expiresAt: expiresAt() }).expect(201)).body
        .data as BatchDetailDto;
      await reveal(created.id).expect(200);
      clock.advance(23 * HOUR);
      await reveal(created.id).expect(200);
      clock.advance(HOUR);
      const gone = await reveal(created.id).expect(410);
      expect(gone.body.message).toMatch(/Only a password reset shows a new one/);
      expect(await testApp.dataSource.getRepository(BatchPasswordEntity).countBy({ batchId: created.id })).toBe(0);
      const stored = await testApp.dataSource.getRepository(UserBatchEntity).findOneByOrFail({ id: created.id });
      expect(stored.passwordsErasedAt).not.toBeNull();
      expect((await get(`${BATCHES}/${created.id}`).expect(200)).body.data.passwords).toBe('gone');
      await reveal(created.id).expect(410);
    });

    it('the sweep erases the passwords of a batch nobody opened after its window', async () => {
      const created = (await post({ venueId: 'venue-a', count: 2, expiresAt: expiresAt() }).expect(201)).body
        .data as BatchDetailDto;
      await reveal(created.id).expect(200);
      clock.advance(25 * HOUR);
      await testApp.app.get(BatchesService).eraseClosed();
      expect(await testApp.dataSource.getRepository(BatchPasswordEntity).countBy({ batchId: created.id })).toBe(0);
    });

    it('replays a create with the same Idempotency-Key: one batch, no password stored with the answer', async () => {
      const body = { venueId: 'venue-a', count: 4, expiresAt: expiresAt() };
      const first = await post(body, writer, 'batch-key-1').expect(201);
      const again = await post(body, writer, 'batch-key-1').expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.data.id).toBe(first.body.data.id);
      expect(await testApp.dataSource.getRepository(UserBatchEntity).countBy({ id: first.body.data.id })).toBe(1);
      const stored = await testApp.dataSource
        .getRepository(IdempotencyKeyEntity)
        .findOneByOrFail({ key: 'batch-key-1' });
      expect(JSON.stringify(stored.answer)).toContain(first.body.data.id);
      expect(JSON.stringify(stored.answer)).not.toMatch(/password\\?"\s*:\s*\\?"/);
    });

    it('draws again a username that exists already instead of refusing the batch', async () => {
      await givenUser(testApp, { username: 'dup-aaaaaa', venueIds: ['venue-a'] });
      const created = await post({ venueId: 'venue-a', count: 20, prefix: 'dup-', expiresAt: expiresAt() }).expect(201);
      expect((created.body.data as BatchDetailDto).accounts.map((account) => account.username)).not.toContain(
        'dup-aaaaaa',
      );
    });

    it('venue scope: another venue is 403 to create and 404 to read or reveal; read-only tokens cannot create', async () => {
      const created = (await post({ venueId: 'venue-a', count: 1, expiresAt: expiresAt() }).expect(201)).body
        .data as BatchDetailDto;
      await post({ venueId: 'venue-a', count: 1, expiresAt: expiresAt() }, venueB).expect(403);
      await post({ venueId: 'venue-a', count: 1, expiresAt: expiresAt() }, reader).expect(403);
      await get(`${BATCHES}/${created.id}`, venueB).expect(404);
      await reveal(created.id, venueB).expect(404);
      const list = await get(`${BATCHES}?venueId=venue-b`, venueB).expect(200);
      expect(list.body.data).toEqual([]);
      await get(`${BATCHES}?venueId=venue-a`, venueB).expect(403);
      const mine = await get(`${BATCHES}`, reader).expect(200);
      expect(mine.body.data.map((batch: { id: string }) => batch.id)).toContain(created.id);
    });

    it.each([
      [{ venueId: 'venue-a', count: 0, expiresAt: '2030-01-01T00:00:00Z' }, 'count'],
      [{ venueId: 'venue-a', count: 1001, expiresAt: '2030-01-01T00:00:00Z' }, 'count'],
      [{ venueId: 'venue-a', count: '5', expiresAt: '2030-01-01T00:00:00Z' }, 'count'],
      [{ venueId: 'venue-a', count: 5, passwordLength: 7, expiresAt: '2030-01-01T00:00:00Z' }, 'passwordLength'],
      [{ venueId: 'venue-a', count: 5, passwordLength: 13, expiresAt: '2030-01-01T00:00:00Z' }, 'passwordLength'],
      [{ venueId: 'venue-a', count: 5, prefix: 'bad prefix', expiresAt: '2030-01-01T00:00:00Z' }, 'prefix'],
      [{ venueId: 'venue-a', count: 5 }, 'expiresAt'],
      [{ venueId: 'venue-a', count: 5, expiresAt: '2030-01-01T00:00:00Z', validFor: 3600 }, 'validFor'],
      [{ venueId: 'venue-a', count: 5, validFor: 59 }, 'validFor'],
      [{ venueId: 'venue-a', count: 5, validFor: '3600' }, 'validFor'],
      [{ venueId: 'venue-a', count: 5, expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
      [{ venueId: 'venue-a', count: 5, expiresAt: '2030-01-01T00:00:00Z', label: 'x'.repeat(101) }, 'label'],
      [{ venueId: 'bad venue', count: 5, expiresAt: '2030-01-01T00:00:00Z' }, 'venueId'],
    ])('refuses %j with a 400 naming %s', async (body, field) => {
      const response = await post(body).expect(400);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it('hotspot batch create/list/export: 50 accounts, their CSV (mode 0600) logs them in; audited as the command line', async () => {
      const cli = (...argv: string[]) => runCli(contextRuntime(testApp.app), ...argv);
      const created = await cli(
        'batch',
        'create',
        '--venue',
        'venue-a',
        '--count',
        '50',
        '--prefix',
        'cli-',
        '--expires-at',
        expiresAt(),
        '--label',
        'CLI',
        '--json',
      );
      expect(created.code).toBe(0);
      const batch = JSON.parse(created.stdout) as BatchDetailDto;
      expect(batch.accounts).toHaveLength(50);
      expect(created.stdout).not.toMatch(/password"\s*:\s*"/);
      const listed = await cli('batch', 'list', '--venue', 'venue-a');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(batch.id);
      const dir = mkdtempSync(join(tmpdir(), 'hotspot-batch-'));
      try {
        const out = join(dir, 'cards.csv');
        const exported = await cli('batch', 'export', batch.id, '--out', out);
        expect(exported.code).toBe(0);
        expect(statSync(out).mode & 0o777).toBe(0o600);
        const lines = readFileSync(out, 'utf8').trimEnd().split('\r\n');
        expect(lines).toHaveLength(51);
        const radius = await testApp.createToken({ permissions: ['radius'] });
        const nas = await givenNas(testApp, 'venue-a');
        for (const line of lines.slice(1, 4)) {
          const [username, password] = line.split(',');
          const login = await radiusCall(
            testApp,
            radius,
            'authorize',
            nas,
            rlmBody({ 'User-Name': username, 'User-Password': password }),
          );
          expect(login.status).toBe(200);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      // --json: the same accounts as one JSON object, within the window the first export opened.
      const asJson = await cli('batch', 'export', batch.id, '--json');
      expect(asJson.code).toBe(0);
      const shown = JSON.parse(asJson.stdout) as { batch: { id: string }; cards: Array<{ password: string }> };
      expect(shown.batch.id).toBe(batch.id);
      expect(shown.cards).toHaveLength(50);
      expect(shown.cards.every((card) => card.password.length >= 8)).toBe(true);
      const audit = await auditOf(batch.id);
      expect(audit.map((event) => [event.action, event.actorType])).toEqual([
        ['batch.create', 'cli'],
        ['batch.reveal', 'cli'],
        ['batch.reveal', 'cli'],
      ]);
      expect(
        (await cli('batch', 'create', '--venue', 'venue-a', '--count', '0', '--expires-at', expiresAt())).code,
      ).toBe(2);
      expect((await cli('batch', 'create', '--venue', 'venue-a', '--count', '5')).code).toBe(2);
      expect((await cli('batch', 'export', 'no-such-batch')).code).toBe(1);
    });

    it('odd ids are 404, never 500', async () => {
      for (const id of ['x', 'z'.repeat(300), '%E2%80%A8', '..%2F..']) {
        expect((await get(`${BATCHES}/${id}`)).status).toBe(404);
        expect((await reveal(id)).status).toBe(404);
      }
    });
  });
}
