import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './support/build.js';
import { CLI_MAIN, spawnCli, spawnCliWithInput } from './support/cli-io.js';
import { NasSimulator } from './support/nas-simulator.js';
import { rlmBody } from './support/radius.js';
import { freePort, startService, type Service } from './support/service-process.js';
import { ADMIN_TOKEN } from './support/test-app.js';

/**
 * The compiled service's output, not on a terminal, is one JSON object per line, also while its
 * worker sends a Disconnect-Request for each of many sessions at once (Node would print a warning of
 * its own on stderr when more than ten of them listened to one abort signal).
 */

const MAIN = join(ROOT, 'dist/src/main.js');
const NAS_SECRET = 'nas-secret-of-the-log-test';
const SESSIONS = 12;

describe('the service log while the worker disconnects many sessions', () => {
  let dir: string;
  let nas: NasSimulator;
  let service: Service | undefined;

  beforeAll(async () => {
    ensureBuilt([MAIN, CLI_MAIN]);
    dir = mkdtempSync(join(tmpdir(), 'hotspot-log-lines-'));
    nas = await NasSimulator.start(NAS_SECRET);
  }, 120_000);

  afterAll(async () => {
    if (service !== undefined && service.child.exitCode === null) service.child.kill('SIGKILL');
    await nas?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays one JSON object per line', async () => {
    const port = await freePort();
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'hotspot.sqlite')}`,
      BOOTSTRAP_TOKEN: ADMIN_TOKEN,
      LOG_FORMAT: 'json',
    };
    // An operator exists, so the first start prints no sign-in block: all it writes is the log.
    const operator = await spawnCliWithInput(
      env,
      dir,
      'a long passphrase\n',
      'operator',
      'create',
      '--email',
      'ops@example.com',
      '--name',
      'Ops',
      '--permissions',
      'read',
      '--password-stdin',
    );
    expect(operator.code).toBe(0);
    // The bootstrap token is stored by the service's first start, before any other token exists.
    service = startService(
      MAIN,
      { ...env, PORT: String(port), HOST: '127.0.0.1', UNAUTH_DISPATCHER: 'radius', UNAUTH_POLL_INTERVAL_MS: '100' },
      dir,
    );
    await service.waitForOutput(/Hotspot API listening on/);
    const added = await spawnCli(
      env,
      dir,
      'nas',
      'add',
      '--venue',
      'venue-a',
      '--name',
      'lobby-ap',
      '--ip',
      nas.address,
      '--secret',
      NAS_SECRET,
      '--coa-port',
      String(nas.port),
    );
    expect(added.code).toBe(0);
    const created = await spawnCli(env, dir, 'token', 'create', '--name', 'freeradius', '--permissions', 'radius');
    expect(created.code).toBe(0);
    const radiusToken = created.stdout.trim();

    const base = `http://127.0.0.1:${port}`;
    const call = (path: string, method: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });

    const user = await call('/api/v1/hotspot-users', 'POST', ADMIN_TOKEN, {
      name: 'Many devices',
      loginMethod: 'username_password',
      username: 'many-devices',
      password: 'secret-1',
      venueIds: ['venue-a'],
    });
    expect(user.status).toBe(201);
    const userId = ((await user.json()) as { data: { _id: string } }).data._id;
    for (let index = 0; index < SESSIONS; index += 1) {
      const started = await call(
        '/radius/accounting',
        'POST',
        radiusToken,
        rlmBody({
          'Acct-Status-Type': 'Start',
          'User-Name': 'many-devices',
          'Acct-Session-Id': `many-${index}`,
          'Acct-Unique-Session-Id': `many-unique-${index}`,
        }),
        { 'X-Radius-Client': 'lobby-ap', 'X-Radius-Client-Ip': nas.address },
      );
      expect(started.status).toBe(204);
    }
    expect((await call(`/api/v1/hotspot-users/${userId}`, 'PUT', ADMIN_TOKEN, { status: 'blocked' })).status).toBe(200);

    for (let tries = 0; tries < 100 && nas.verified.length < SESSIONS; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(nas.verified).toHaveLength(SESSIONS);
    service.child.kill('SIGTERM');
    expect((await service.exited(15_000)).code).toBe(0);

    const lines = service
      .output()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.filter((line) => !isJsonObject(line))).toEqual([]);
  }, 60_000);
});

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
