import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PasswordHasher } from '../src/common/passwords/password-hasher.js';
import { NasService } from '../src/nas/nas.service.js';
import { databaseKinds } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { radtest, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);
const SECRET = 'a-shared-secret-for-the-busy-nas';
const PASSWORD = 'secret-1';
/** FreeRADIUS gives the service this long per login: an Access-Accept proves the answer came within it. */
const REST_TIMEOUT_MS = 1000;

/**
 * Guest logins come first: while one venue's write token creates a batch of 1,000 vouchers, or
 * 150 console sign-ins arrive at once, guests of another venue logging in for the first time
 * (their passwords verified with argon2id, nothing cached) are accepted through a real FreeRADIUS,
 * each within its REST timeout, while that other work is still under way. Before the work
 * classes, such a login waited behind every hash of the batch (15 s and more) and was rejected.
 */
/**
 * `count` console sign-ins with unknown emails, all at once, by curl in a process of its own (as
 * browsers elsewhere would send them): each one's status and body.
 */
async function signInBurst(port: number, count: number): Promise<{ status: number; body: string }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hotspot-sign-ins-'));
  try {
    const requests = Array.from({ length: count }, (_, index) =>
      [
        `url = "http://127.0.0.1:${port}/admin/login"`,
        `data = "email=nobody-${index}%40venue.example&password=guess-${index}"`,
        'header = "Sec-Fetch-Site: same-origin"',
        'header = "Accept-Language: en"',
        `output = "${join(dir, `${index}.html`)}"`,
        `write-out = "${index} %{http_code}\\n"`,
      ].join('\n'),
    );
    writeFileSync(join(dir, 'requests'), `${requests.join('\nnext\n')}\n`);
    const { stdout } = await run('curl', [
      '--silent',
      '--parallel',
      '--parallel-immediate',
      '--parallel-max',
      String(count),
      '--config',
      join(dir, 'requests'),
    ]);
    return stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ').map(Number))
      .map(([index, status]) => ({ status, body: readFileSync(join(dir, `${index}.html`), 'utf8') }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const kind of databaseKinds()) {
  describe(`logins come first [${kind}]`, () => {
    let app: TestApp;
    let server: StartedFreeRadius;

    beforeAll(async () => {
      app = await startTestApp(kind, { SECRETS_KEY: 'b'.repeat(64), LOG_LEVEL: 'fatal' });
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      await app.app
        .get(NasService)
        .add({ venueId: 'venue-a', name: 'busy-nas', ipAddress: '127.0.0.1', secret: SECRET });
      server = await startFreeRadius({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: REST_TIMEOUT_MS,
        clients: [{ name: 'busy-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      });
    });

    afterAll(async () => {
      await server?.close();
      await app?.close();
    });

    const hashing = () =>
      app.app
        .get(PasswordHasher)
        .stats()
        .find((stats) => stats.name === 'hashing')!;

    /** Logs each of `users` in through FreeRADIUS, one after the other, noting whether `busy` was still true at each answer. */
    async function logInAll(users: { username: string | null }[], busy: () => boolean) {
      const outcomes: { type: string | null; duringOtherWork: boolean }[] = [];
      for (const user of users) {
        const reply = await radtest(server.authPort, SECRET, user.username!, PASSWORD);
        outcomes.push({ type: reply.type, duringOtherWork: busy() });
      }
      return outcomes;
    }

    it('a batch of 1,000 vouchers at another venue: every guest logging in meanwhile is accepted, while the batch still hashes', async () => {
      await server.explainFailures(async () => {
        const guests = await Promise.all(Array.from({ length: 8 }, () => givenUser(app)));
        const writer = await app.createToken({ permissions: ['write'], venueIds: ['venue-b'] });
        let batchDone = false;
        const batch = app.http
          .post('/api/v1/hotspot-user-batches')
          .set('Authorization', `Bearer ${writer}`)
          .send({ venueId: 'venue-b', count: 1000, validFor: 86_400 })
          .then((response) => {
            batchDone = true;
            return response;
          });
        // Bounded wait until the batch's hashes are under way.
        for (let tries = 0; hashing().running === 0 && tries < 500; tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(hashing().running).toBeGreaterThan(0);
        const outcomes = await logInAll(guests, () => !batchDone);
        expect(outcomes).toEqual(guests.map(() => ({ type: 'Access-Accept', duringOtherWork: true })));
        const response = await batch;
        expect(response.status).toBe(201);
        expect(response.body.data.count).toBe(1000);
      });
    });

    it('150 console sign-ins at once, from another process: guests logging in meanwhile are accepted; each sign-in is refused (401) or told "busy" (503), never an error', async () => {
      await server.explainFailures(async () => {
        const guests = await Promise.all(Array.from({ length: 5 }, () => givenUser(app)));
        const { port } = app.app.getHttpServer().address() as AddressInfo;
        const signIns = signInBurst(port, 150);
        let signInsDone = false;
        void signIns.then(() => (signInsDone = true));
        // Bounded wait until the first sign-ins are being verified.
        const signIn = () =>
          app.app
            .get(PasswordHasher)
            .stats()
            .find((stats) => stats.name === 'sign-in')!;
        for (let tries = 0; signIn().started === 0 && tries < 500; tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const outcomes = await logInAll(guests, () => !signInsDone);
        const answers = await signIns;
        expect(outcomes.map((outcome) => outcome.type)).toEqual(guests.map(() => 'Access-Accept'));
        // The first login was answered while the sign-ins were still under way.
        expect(outcomes[0].duringOtherWork).toBe(true);
        expect(answers).toHaveLength(150);
        expect(answers.filter((answer) => answer.status !== 401 && answer.status !== 503)).toEqual([]);
        for (const busy of answers.filter((answer) => answer.status === 503)) {
          expect(busy.body).toContain('The service is busy. Try again in a moment.');
        }
        // Every sign-in was verified or refused as busy by its own class: none took a login's slot.
        expect(signIn().started + signIn().refused.busy).toBeGreaterThanOrEqual(150);
        expect(signIn().refused.busy).toBe(answers.filter((answer) => answer.status === 503).length);
      });
    });
  });
}
