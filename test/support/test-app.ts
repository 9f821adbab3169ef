import type { NestExpressApplication } from '@nestjs/platform-express';
import type { DestinationStream } from 'pino';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { ApiTokenService } from '../../src/auth/api-token.service.js';
import type { Permission } from '../../src/auth/permissions.js';
import { createApp } from '../../src/app.setup.js';
import { Clock } from '../../src/common/clock.js';
import { loadConfig } from '../../src/config/configuration.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { buildOpenApiDocument } from '../../src/common/swagger/openapi.js';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './databases.js';
import { OpenApiConformance } from './openapi-conformance.js';

export const ADMIN_TOKEN = 'hsp_test-admin-token-0123456789abcdefghijklmnop';

export interface TestApp {
  kind: DatabaseKind;
  app: NestExpressApplication;
  http: TestAgent;
  dataSource: DataSource;
  database: DatabaseService;
  /** An unrestricted delete-level token (stored through BOOTSTRAP_TOKEN). */
  adminToken: string;
  /** Stores a token and returns its value. */
  createToken(options?: TokenOptions): Promise<string>;
  close(): Promise<void>;
}

export interface TokenOptions {
  name?: string;
  permissions?: Permission[];
  venueIds?: string[] | null;
  expiresAt?: Date | null;
}

export interface StartOptions {
  /**
   * Start on this existing database instead of a fresh one, e.g. to restart the app on the same data.
   * The caller owns it: close() then leaves it in place, and the caller drops it.
   */
  database?: TestDatabase;
  /**
   * The app reads "now" from this clock (e.g. a ManualClock) instead of the system's: every
   * service shares the one Clock instance, whose now() is pointed here right after start-up.
   */
  clock?: Clock;
  /** Where the app's JSON log lines go (stdout when not given), for tests that read the log. */
  logDestination?: DestinationStream;
  /**
   * false: this instance does not fold the venue counters' pending changes (as a CLI command does not),
   * so the only transactions it commits are its requests' own.
   */
  foldsCounts?: boolean;
}

/**
 * Every response of every test app is checked against the OpenAPI document (built once, from the
 * first app: it depends on the code alone). A test whose requests got an undocumented answer fails,
 * naming the operation, the status and the problem.
 */
let conformance: OpenApiConformance | undefined;

function failOnMismatches(): void {
  const report = conformance?.takeReport() ?? '';
  if (report !== '') throw new Error(`Responses that do not match the OpenAPI document:\n${report}`);
}

afterEach(failOnMismatches);
// Requests made in afterAll hooks, after the last afterEach.
afterAll(failOnMismatches);

/** Starts the real application (same set-up as main.ts) on a database of its own. */
export async function startTestApp(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestApp> {
  const ownsDatabase = options.database === undefined;
  const database: TestDatabase = options.database ?? (await createTestDatabase(kind));
  const config = loadConfig({
    DATABASE_URL: database.url,
    BOOTSTRAP_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    // Background work is driven by the tests that are about it, so other tests see jobs as written.
    WORKER_ENABLED: 'false',
    EXPIRY_SWEEP_INTERVAL: '0',
    USAGE_SWEEP_INTERVAL: '0',
    RECORDS_SWEEP_INTERVAL: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
    // Shedding answers by how fast this machine is at the moment; the tests about it turn it on.
    SHED_PAGES_DELAY_MS: '0',
    SHED_WRITES_DELAY_MS: '0',
    ...env,
  });
  if (options.foldsCounts === false) config.countFoldIntervalMs = 0;
  let app: NestExpressApplication;
  try {
    app = await createApp(config, { logDestination: options.logDestination });
  } catch (error) {
    if (ownsDatabase) await database.drop();
    throw error;
  }
  conformance ??= new OpenApiConformance(buildOpenApiDocument(app));
  conformance.attach(app.getHttpServer());
  const clock = options.clock;
  if (clock !== undefined) app.get(Clock).now = () => clock.now();
  const tokens = app.get(ApiTokenService);
  const databaseService = app.get(DatabaseService);
  let counter = 0;
  return {
    kind,
    app,
    http: request(app.getHttpServer()),
    dataSource: databaseService.dataSource,
    database: databaseService,
    adminToken: ADMIN_TOKEN,
    async createToken(options: TokenOptions = {}) {
      const { value } = await tokens.create({
        name: options.name ?? `test-token-${++counter}`,
        permissions: options.permissions ?? ['read'],
        venueIds: options.venueIds ?? null,
        expiresAt: options.expiresAt ?? null,
      });
      return value;
    },
    async close() {
      await app.close();
      if (ownsDatabase) await database.drop();
    },
  };
}

/**
 * Declares `body` once per database kind, each with its own app and fresh database, so every e2e
 * suite runs on SQLite and, when TEST_MYSQL_URL is set, on MySQL/MariaDB.
 */
export function describeEachDatabase(title: string, body: (current: () => TestApp) => void): void {
  for (const kind of databaseKinds()) {
    describe(`${title} [${kind}]`, () => {
      let testApp: TestApp | undefined;
      beforeAll(async () => {
        testApp = await startTestApp(kind);
      });
      afterAll(async () => {
        await testApp?.close();
      });
      body(() => {
        if (testApp === undefined) throw new Error('test app not started');
        return testApp;
      });
    });
  }
}
