import type { AddressInfo } from 'node:net';
import pLimit from 'p-limit';
import type { BatchCardsDto, BatchDetailDto } from '../src/batches/dto/batch.response.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { NasService } from '../src/nas/nas.service.js';
import { contextRuntime, runCli } from './support/cli-io.js';
import { signInConsole } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { radtest, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'a-shared-secret-for-the-batch-nas';
const VENUE = 'batch-radius';
const EXPIRES_AT = '2031-01-31T12:00:00Z';

/** Every account of a batch of 50 made through each path (REST, command line, console) logs in through a real FreeRADIUS. */
for (const kind of databaseKinds()) {
  describe(`batch accounts behind a real FreeRADIUS [${kind}]`, () => {
    let app: TestApp;
    let server: StartedFreeRadius;

    beforeAll(async () => {
      app = await startTestApp(kind, { SECRETS_KEY: 'd'.repeat(64) });
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      await app.app.get(NasService).add({ venueId: VENUE, name: 'batch-nas', ipAddress: '127.0.0.1', secret: SECRET });
      server = await startFreeRadius({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: 5000,
        clients: [{ name: 'batch-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      });
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await app?.close();
    });

    /** radtest for each card, four at a time; the replies' types. */
    async function logIn(cards: Array<{ username: string; password: string }>): Promise<Array<string | null>> {
      const limit = pLimit(4);
      return Promise.all(
        cards.map((card) =>
          limit(async () => (await radtest(server.authPort, SECRET, card.username, card.password)).type),
        ),
      );
    }

    it('REST: 50 accounts, revealed once, each Access-Accept; a wrong password Access-Reject', async () => {
      await server.explainFailures(async () => {
        const created = await app.http
          .post('/api/v1/hotspot-user-batches')
          .set('Authorization', `Bearer ${app.adminToken}`)
          .send({ venueId: VENUE, count: 50, prefix: 'rest-', expiresAt: EXPIRES_AT })
          .expect(201);
        const revealed = await app.http
          .post(`/api/v1/hotspot-user-batches/${(created.body.data as BatchDetailDto).id}/reveal`)
          .set('Authorization', `Bearer ${app.adminToken}`)
          .expect(200);
        const cards = (revealed.body.data as BatchCardsDto).cards.map(({ username, password }) => ({
          username: username!,
          password,
        }));
        expect(cards).toHaveLength(50);
        expect(await logIn(cards)).toEqual(Array(50).fill('Access-Accept'));
        expect((await radtest(server.authPort, SECRET, cards[0].username, `${cards[0].password}x`)).type).toBe(
          'Access-Reject',
        );
      });
    }, 120_000);

    it('validFor: an account of a "24 hours from the first login" batch gets expiresAt at its first login, not moved by the second', async () => {
      await server.explainFailures(async () => {
        const created = await app.http
          .post('/api/v1/hotspot-user-batches')
          .set('Authorization', `Bearer ${app.adminToken}`)
          .send({ venueId: VENUE, count: 2, prefix: 'day-', validFor: 86_400 })
          .expect(201);
        const batch = created.body.data as BatchDetailDto;
        expect(batch).toMatchObject({ validFor: 86_400, expiresAt: null });
        const users = app.dataSource.getRepository(HotspotUserEntity);
        expect(await users.findOneByOrFail({ id: batch.accounts[0]._id })).toMatchObject({
          validFor: 86_400,
          expiresAt: null,
          firstLoginAt: null,
        });
        const revealed = await app.http
          .post(`/api/v1/hotspot-user-batches/${batch.id}/reveal`)
          .set('Authorization', `Bearer ${app.adminToken}`)
          .expect(200);
        const [card] = (revealed.body.data as BatchCardsDto).cards;
        const first = await radtest(server.authPort, SECRET, card.username!, card.password);
        expect(first.type).toBe('Access-Accept');
        const timeout = Number(first.attributes['Session-Timeout'][0]);
        expect(timeout).toBeGreaterThan(86_300);
        expect(timeout).toBeLessThanOrEqual(86_400);
        const after = await users.findOneByOrFail({ id: card._id });
        expect(after.firstLoginAt).not.toBeNull();
        expect(after.expiresAt!.getTime()).toBe(after.firstLoginAt!.getTime() + 86_400_000);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        expect((await radtest(server.authPort, SECRET, card.username!, card.password)).type).toBe('Access-Accept');
        const again = await users.findOneByOrFail({ id: card._id });
        expect(again.expiresAt).toEqual(after.expiresAt);
        expect(again.firstLoginAt).toEqual(after.firstLoginAt);
        const record = await app.http
          .get(`/api/v1/hotspot-users/${card._id}`)
          .set('Authorization', `Bearer ${app.adminToken}`)
          .expect(200);
        expect(record.body.data).toMatchObject({
          batchId: batch.id,
          validFor: 86_400,
          expiresAt: after.expiresAt!.toISOString(),
        });
      });
    }, 60_000);

    it('command line: 50 accounts from `batch create`, their CSV from `batch export`, each Access-Accept', async () => {
      await server.explainFailures(async () => {
        const cli = (...argv: string[]) => runCli(contextRuntime(app.app), ...argv);
        const created = await cli(
          'batch',
          'create',
          '--venue',
          VENUE,
          '--count',
          '50',
          '--prefix',
          'cli-',
          '--expires-at',
          EXPIRES_AT,
          '--json',
        );
        expect(created.code).toBe(0);
        const exported = await cli('batch', 'export', (JSON.parse(created.stdout) as BatchDetailDto).id);
        expect(exported.code).toBe(0);
        const cards = exported.stdout
          .trimEnd()
          .split('\r\n')
          .slice(1)
          .map((line) => {
            const [username, password] = line.split(',');
            return { username, password };
          });
        expect(cards).toHaveLength(50);
        expect(await logIn(cards)).toEqual(Array(50).fill('Access-Accept'));
      });
    }, 120_000);

    it('console: 50 accounts from the form, their cards printed, each Access-Accept', async () => {
      await server.explainFailures(async () => {
        const { console } = await signInConsole(app, { permissions: ['read', 'write'], venueIds: [VENUE] });
        const created = await console.post('/admin/batches', {
          venueId: VENUE,
          count: '50',
          prefix: 'web-',
          expiresAt: '2031-01-31T12:00',
        });
        expect(created.status).toBe(303);
        const id = /\/admin\/batches\/([^?]+)/.exec(created.headers.location)![1];
        // Post/Redirect/Get: the cards are a page of their own.
        const posted = await console.post(`/admin/batches/${id}/print`, {});
        expect(posted.status).toBe(303);
        const printed = await console.follow(posted);
        expect(printed.status).toBe(200);
        const cards = [
          ...printed.text.matchAll(/<dd><code>([^<]+)<\/code><\/dd>\s*<dt>[^<]*<\/dt><dd><code>([^<]+)<\/code><\/dd>/g),
        ].map(([, username, password]) => ({ username, password }));
        expect(cards).toHaveLength(50);
        expect(await logIn(cards)).toEqual(Array(50).fill('Access-Accept'));
      });
    }, 120_000);
  });
}
