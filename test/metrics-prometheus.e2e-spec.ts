import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { AddressInfo } from 'node:net';
import { MetricsServer } from '../src/metrics/metrics-server.js';
import { NasService } from '../src/nas/nas.service.js';
import { api } from './support/api-client.js';
import { radclient, radtest, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { NasSimulator, type NasAnswer } from './support/nas-simulator.js';
import { databaseKinds } from './support/databases.js';
import { givenUser, startSession, uniqueDevice, userBody } from './support/factories.js';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app.js';
import { ensureBuilt } from './support/build.js';
import { freePort, startService, type Service } from './support/service-process.js';

const PROMETHEUS = '/usr/bin/prometheus';
const NAS_SECRET = 'metrics-nas-secret-0123456789';
const PASSWORD = 'secret-1';
const VENUE = 'venue-m';
const ROOT = new URL('..', import.meta.url).pathname;

/** Every PromQL expression of the dashboard and the alert rules. */
function shippedExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(join(ROOT, 'deploy/grafana/hotspot-dashboard.json'), 'utf8')) as {
    panels: Array<{ targets: Array<{ expr: string }> }>;
  };
  const rules = parse(readFileSync(join(ROOT, 'deploy/prometheus/alert-rules.yml'), 'utf8')) as {
    groups: Array<{ rules: Array<{ expr: string }> }>;
  };
  return [
    ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)),
    ...rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr)),
  ];
}

async function query(
  base: string,
  expr: string,
): Promise<{ status: string; data?: { result: unknown[] }; error?: string }> {
  const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr)}`);
  return (await response.json()) as { status: string; data?: { result: unknown[] }; error?: string };
}

const runs = existsSync(PROMETHEUS) ? describe : describe.skip;

describe.each(databaseKinds())('Prometheus metrics [%s]', (kind) => {
  let testApp: TestApp;
  let metricsUrl: string;

  let nas: NasSimulator;
  let radius: StartedFreeRadius;
  /** The simulated NAS's answer to a Disconnect, by the User-Name it names. */
  const answers = new Map<string, NasAnswer>();

  beforeAll(async () => {
    nas = await NasSimulator.start(NAS_SECRET);
    nas.answer = (request) => answers.get(request.userName ?? '') ?? 'ack';
    testApp = await startTestApp(kind, {
      METRICS_PORT: '0',
      METRICS_DATABASE_READ_SECONDS: '1',
      UNAUTH_DISPATCHER: 'radius',
      WORKER_ENABLED: 'true',
      UNAUTH_POLL_INTERVAL_MS: '100',
      RADIUS_DM_TIMEOUT_MS: '300',
      RADIUS_DM_RETRIES: '0',
      UNAUTH_MAX_ATTEMPTS: '1',
      LOG_LEVEL: 'fatal',
    });
    const address = testApp.app.get(MetricsServer).address()!;
    metricsUrl = `http://127.0.0.1:${address.port}/metrics`;
    await testApp.app.listen(0, '127.0.0.1');
    const { port } = testApp.app.getHttpServer().address() as AddressInfo;
    // FreeRADIUS's client and the NAS the Disconnects go to are one NAS at 127.0.0.1, played by the simulator.
    await testApp.app
      .get(NasService)
      .add({ venueId: VENUE, name: 'metrics-nas', ipAddress: '127.0.0.1', secret: NAS_SECRET, coaPort: nas.port });
    radius = await startFreeRadius({
      apiUrl: `http://127.0.0.1:${port}`,
      token: await testApp.createToken({ permissions: ['radius'] }),
      restTimeoutMs: 5000,
      clients: [
        { name: 'metrics-nas', ipAddress: '127.0.0.1', secret: NAS_SECRET, requireMessageAuthenticator: false },
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await radius?.close();
    await testApp?.close();
    await nas?.close();
  });

  /** A user of the venue logged in through FreeRADIUS (radtest) with a session it started (radclient), then blocked. */
  async function blockedWhileOnline(answer: NasAnswer): Promise<void> {
    const user = await givenUser(testApp, { venueIds: [VENUE] });
    answers.set(user.username!, answer);
    expect((await radtest(radius.authPort, NAS_SECRET, user.username!, PASSWORD)).type).toBe('Access-Accept');
    const start = await radclient(radius.acctPort, 'acct', NAS_SECRET, {
      'Acct-Status-Type': 'Start',
      'User-Name': user.username!,
      'Acct-Session-Id': `metrics-${user._id}`,
      'Calling-Station-Id': uniqueDevice().macAddress,
      'Framed-IP-Address': '10.5.60.7',
      'NAS-IP-Address': '127.0.0.1',
    });
    expect(start.type).toBe('Accounting-Response');
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
  }

  it('serves /metrics on its own listener, never on the API port', async () => {
    await testApp.http
      .get('/api/v1/hotspot-users?venueId=venue-m')
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .expect(200);
    await testApp.http.get('/metrics').expect(404);
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain(
      'hotspot_http_request_duration_seconds_count{role="service",method="GET",route="/api/v1/hotspot-users",status_class="2xx"}',
    );
    expect(body).toContain('hotspot_database_up{role="service"} 1');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
    expect(body).not.toContain(testApp.adminToken);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('counts a done job that reached no NAS as not-sent, apart from done', async () => {
    // A session the command line started: no NAS reported it, so the block's Disconnect goes nowhere.
    const user = await givenUser(testApp, { venueIds: [VENUE] });
    await startSession(testApp, { userId: user._id, venueId: VENUE, macAddress: uniqueDevice().macAddress });
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    const line = /^hotspot_unauth_jobs\{[^}]*status="not-sent"[^}]*\} (\d+)$/m;
    let body = '';
    for (let tries = 0; tries < 50 && Number(line.exec(body)?.[1] ?? 0) < 1; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      body = await (await fetch(metricsUrl)).text();
    }
    expect(line.exec(body)?.[1]).toBe('1');
    expect(body).toMatch(/^hotspot_unauth_jobs\{[^}]*status="done"[^}]*\} \d+$/m);
  });

  runs('against a real Prometheus', () => {
    let prometheus: ChildProcess | undefined;
    let folder: string;
    let base: string;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'hotspot-prometheus-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const target = new URL(metricsUrl).host;
      writeFileSync(
        join(folder, 'prometheus.yml'),
        `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: hotspot\n    static_configs:\n      - targets: ['${target}']\n`,
      );
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${join(folder, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(folder, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: 'ignore' },
      );
    });

    afterAll(async () => {
      if (prometheus !== undefined && prometheus.exitCode === null) {
        const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
        prometheus.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    });

    it('scrapes the series, and every dashboard and alert expression evaluates', async () => {
      const token = testApp.adminToken;
      // A login and an accounting packet through FreeRADIUS each time; one Disconnect ACKed, one NAKed.
      await blockedWhileOnline('ack');
      await blockedWhileOnline({ nak: 404 });
      expect((await radtest(radius.authPort, NAS_SECRET, 'nobody-here', 'wrong')).type).toBe('Access-Reject');
      await testApp.http
        .post('/api/v1/hotspot-users')
        .set('Authorization', `Bearer ${token}`)
        .send(userBody({ venueIds: ['venue-m'] }))
        .expect(201);
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);
      let users: unknown[] = [];
      for (let tries = 0; tries < 60 && users.length === 0; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        try {
          const answer = await query(base, 'hotspot_users{status="active"} > 0');
          users = answer.data?.result ?? [];
        } catch {
          // Prometheus still starting.
        }
      }
      expect(users).toHaveLength(1);
      const series = await query(base, 'hotspot_http_request_duration_seconds_count{route="/api/v1/hotspot-users"}');
      expect(series.data?.result.length).toBeGreaterThan(0);
      // The RADIUS and delivery series, once Prometheus has scraped them (the worker delivers within a second or two).
      const wanted = [
        'hotspot_radius_authorize_total{result="accept"} >= 2',
        'hotspot_radius_authorize_total{result="reject",reason="invalidCredentials"} >= 1',
        'hotspot_radius_accounting_packets_total{status_type="Start"} >= 2',
        'hotspot_unauth_deliveries_total{dispatcher="radius",result="ack"} >= 1',
        'hotspot_unauth_deliveries_total{dispatcher="radius",result="nak"} >= 1',
        'hotspot_unauth_round_trip_seconds_count >= 2',
        'hotspot_unauth_jobs_written_total{reason="blocked"} >= 2',
      ];
      const missing = new Set(wanted);
      for (let tries = 0; tries < 60 && missing.size > 0; tries++) {
        for (const expr of missing) {
          if (((await query(base, expr)).data?.result ?? []).length > 0) missing.delete(expr);
        }
        if (missing.size > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect([...missing]).toEqual([]);
      expect(nas.verified.map((request) => request.packet?.code)).toHaveLength(2);
      for (const expr of shippedExpressions()) {
        const answer = await query(base, expr);
        expect({ expr, status: answer.status, error: answer.error }).toEqual({
          expr,
          status: 'success',
          error: undefined,
        });
      }
    }, 60_000);
  });
});

/**
 * The compiled processes each serve their own /metrics: the HTTP service and, separately, the job
 * worker (role="worker"), on the port METRICS_PORT names, never on the API's.
 */
describe('/metrics of the compiled worker process', () => {
  const WORKER = join(ROOT, 'dist/src/worker.js');
  const MAIN = join(ROOT, 'dist/src/main.js');
  let dir: string;
  const services: Service[] = [];

  beforeAll(() => {
    ensureBuilt([MAIN, WORKER]);
    dir = mkdtempSync(join(tmpdir(), 'hotspot-worker-metrics-'));
  }, 120_000);

  afterAll(async () => {
    for (const service of services) {
      if (service.child.exitCode === null) {
        service.child.kill('SIGTERM');
        await service.exited(10_000);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('the worker answers /metrics on its own port with its role, its poll time and no token', async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'hotspot.sqlite')}`,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      BOOTSTRAP_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
    };
    // The service creates the schema; the worker then runs on the same file.
    const main = startService(MAIN, env, dir);
    services.push(main);
    await main.waitForOutput(/Hotspot API listening on/, 30_000);
    main.child.kill('SIGTERM');
    expect((await main.exited(10_000)).code).toBe(0);

    const metricsPort = await freePort();
    const worker = startService(WORKER, { ...env, METRICS_PORT: String(metricsPort) }, dir);
    services.push(worker);
    await worker.waitForOutput(/Unauth job worker started/, 30_000);
    let body = '';
    for (let tries = 0; tries < 50 && !body.includes('hotspot_unauth_worker_last_poll_timestamp_seconds{'); tries++) {
      try {
        body = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      } catch {
        // Not listening yet.
      }
      if (!body.includes('hotspot_unauth_worker_last_poll_timestamp_seconds{'))
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(body).toContain('role="worker"');
    expect(body).toMatch(/hotspot_unauth_worker_last_poll_timestamp_seconds\{[^}]*\} \d/);
    expect(body).not.toContain(ADMIN_TOKEN);
  }, 90_000);
});
