import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { MetricsServer } from '../src/metrics/metrics-server.js';
import { databaseKinds } from './support/databases.js';
import { userBody } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PROMETHEUS = '/usr/bin/prometheus';
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
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

  beforeAll(async () => {
    testApp = await startTestApp(kind, { METRICS_PORT: '0', METRICS_DATABASE_READ_SECONDS: '1' });
    const address = testApp.app.get(MetricsServer).address()!;
    metricsUrl = `http://127.0.0.1:${address.port}/metrics`;
  });

  afterAll(async () => {
    await testApp?.close();
  });

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
