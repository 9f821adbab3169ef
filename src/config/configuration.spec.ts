import { availableParallelism } from 'node:os';
import {
  ConfigValidationError,
  configVariables,
  defaultArgon2Slots,
  loadConfig,
  parseDatabaseUrl,
  type AppConfig,
} from './configuration.js';

/** The problems loadConfig reports for `env`, or fails the test when it accepts it. */
function problemsOf(env: Record<string, string>): Array<{ variable: string; message: string }> {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return [...(error as ConfigValidationError).problems];
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** What the SMS gateway and the phone codes take when nothing about them is set. */
const SMS_DEFAULTS: AppConfig['sms'] = {
  gateway: 'log',
  url: null,
  sender: null,
  http: {
    method: 'POST',
    contentType: 'application/x-www-form-urlencoded',
    headers: {},
    body: null,
    acceptPattern: null,
  },
  timeoutMs: 10_000,
  maxAttempts: 4,
  retryBaseMs: 5000,
  pollIntervalMs: 1000,
  reportBaseUrl: null,
  devOutboxFile: null,
};
const PHONE_CODE_DEFAULTS: AppConfig['phoneCodes'] = {
  limits: {
    phone: { sends: 5, windowMs: 3_600_000 },
    device: { sends: 10, windowMs: 3_600_000 },
    venue: { sends: 500, windowMs: 3_600_000 },
    prefix: { sends: 100, windowMs: 3_600_000 },
  },
  resendMs: 60_000,
  countryCodes: [],
  defaultCountryCode: null,
};

describe('loadConfig', () => {
  it('takes a console origin by name only: passkeys cannot be bound to an address or a path', () => {
    for (const origin of [
      'https://10.0.0.1',
      'https://[::1]:8443',
      'https://console.example.com/admin',
      'console.example.com',
    ]) {
      expect(problemsOf({ CONSOLE_ORIGIN: origin }).map(({ variable }) => variable)).toEqual(['CONSOLE_ORIGIN']);
    }
    expect(loadConfig({ CONSOLE_ORIGIN: 'http://localhost:3000' }).console.origin).toBe('http://localhost:3000');
  });

  it('keeps secrets under a key in production: SECRETS_KEY or SECRETS_KEY_FILE, one of them', () => {
    const key = 'a'.repeat(64);
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      {
        variable: 'SECRETS_KEY',
        message: expect.stringMatching(/^must be set \(or SECRETS_KEY_FILE\) when NODE_ENV=production/),
      },
    ]);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: key }).secretsKeyFile).toBeNull();
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY_FILE: '/run/secrets/hotspot' }).secretsKeyFile).toBe(
      '/run/secrets/hotspot',
    );
    expect(problemsOf({ SECRETS_KEY: key, SECRETS_KEY_FILE: '/k' })).toEqual([
      { variable: 'SECRETS_KEY_FILE', message: 'set either SECRETS_KEY or SECRETS_KEY_FILE, not both' },
    ]);
    // No default key file for a server database (every instance needs the same key) or one in memory.
    expect(loadConfig({ DATABASE_URL: 'mysql://db/hotspot' }).secretsKeyFile).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).secretsKeyFile).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'sqlite:/srv/hotspot/db.sqlite' }).secretsKeyFile).toBe(
      '/srv/hotspot/secrets.key',
    );
  });

  it('uses the documented defaults when nothing is set', () => {
    expect(loadConfig({})).toEqual<AppConfig>({
      port: 3000,
      host: '0.0.0.0',
      database: { type: 'sqlite', path: 'data/hotspot.sqlite' },
      migrationsRun: true,
      bootstrapToken: null,
      adminEmail: 'admin@localhost',
      logLevel: 'info',
      logFormat: null,
      tokenCacheTtlMs: 10_000,
      unauthJobs: {
        workerEnabled: true,
        dispatchers: [{ type: 'log' }, { type: 'radius', timeoutMs: 1000, retries: 2 }],
        maxAttempts: 8,
        pollIntervalMs: 1000,
        batchSize: 20,
        leaseMs: 60_000,
        retryBaseMs: 5000,
      },
      expirySweepIntervalMs: 15_000,
      usageSweepIntervalMs: 10_000,
      portalFormsPerMinute: 10,
      countFoldIntervalMs: 1000,
      shutdownTimeoutMs: 10_000,
      rateLimit: { perMinute: 600, unauthenticatedPerMinute: 30, redisUrl: null, redisCoolDownMs: 30_000 },
      trustProxyHops: 0,
      corsOrigins: [],
      databaseTimeoutMs: 5000,
      databasePoolSize: 20,
      http: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5000, maxConnections: 1000 },
      secretsKey: null,
      // The default installation seals its secrets with a key file beside the database.
      secretsKeyFile: `${process.cwd()}/data/secrets.key`,
      radius: {
        maxSessionSeconds: 86_400,
        interimSeconds: 300,
        maxSessionsPerUser: 0,
        staleAfterMs: 900_000,
        staleSweepIntervalMs: 60_000,
        loginAttemptsRetentionMs: 30 * 86_400_000,
        passwordCacheMs: 300_000,
      },
      audit: { retentionDays: 400, pruneIntervalMs: 3_600_000 },
      venuesRegisteredOnly: false,
      metrics: { port: null, host: '127.0.0.1', maxVenueLabels: 100, databaseReadMs: 15_000 },
      argon2Slots: defaultArgon2Slots(availableParallelism()),
      shedding: { browse: 20, change: 50 },
      console: {
        adminRequire2fa: true,
        operatorsRequire2fa: true,
        oneTimePasswordLifetimeMs: 72 * 3_600_000,
        idleTimeoutMs: 1_800_000,
        absoluteTimeoutMs: 43_200_000,
        origin: null,
      },
      sms: SMS_DEFAULTS,
      phoneCodes: PHONE_CODE_DEFAULTS,
    });
  });

  it('gives logins a thread per core, sign-ins one, hashing twice the cores (2 to 8)', () => {
    expect(defaultArgon2Slots(1)).toEqual({ radius: 1, 'sign-in': 1, hashing: 2 });
    expect(defaultArgon2Slots(2)).toEqual({ radius: 2, 'sign-in': 1, hashing: 4 });
    expect(defaultArgon2Slots(16)).toEqual({ radius: 16, 'sign-in': 1, hashing: 8 });
    expect(loadConfig({ ARGON2_HASHING_SLOTS: '3' }).argon2Slots.hashing).toBe(3);
    expect(problemsOf({ ARGON2_RADIUS_SLOTS: '0' })).toEqual([
      { variable: 'ARGON2_RADIUS_SLOTS', message: 'must be an integer from 1 to 256' },
    ]);
  });

  it('stale sessions default to three interim intervals', () => {
    expect(loadConfig({ RADIUS_INTERIM_SECONDS: '600' }).radius.staleAfterMs).toBe(1_800_000);
  });

  it('treats empty and blank values as unset', () => {
    const config = loadConfig({ PORT: '', HOST: '   ', DATABASE_URL: '', BOOTSTRAP_TOKEN: '', LOG_LEVEL: ' ' });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.database).toEqual({ type: 'sqlite', path: 'data/hotspot.sqlite' });
    expect(config.bootstrapToken).toBeNull();
    expect(config.logLevel).toBe('info');
  });

  describe('LOG_FORMAT', () => {
    it('is pretty or json, in any case; unset or blank leaves the choice to the terminal', () => {
      expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
      expect(loadConfig({ LOG_FORMAT: ' JSON ' }).logFormat).toBe('json');
      expect(loadConfig({ LOG_FORMAT: ' ' }).logFormat).toBeNull();
      expect(loadConfig({}).logFormat).toBeNull();
    });
  });

  it('reads every variable when it is valid, trimming surrounding blanks', () => {
    const config = loadConfig({
      PORT: ' 8080 ',
      HOST: '127.0.0.1',
      DATABASE_URL: 'mysql://app:secret@db.internal:3307/hotspot',
      MIGRATIONS_RUN: 'false',
      BOOTSTRAP_TOKEN: 'hsp_0123456789abcdefghijklmnopqrstuvwxyz',
      ADMIN_EMAIL: ' Ops@Example.com ',
      LOG_LEVEL: 'DEBUG',
      LOG_FORMAT: 'json',
      TOKEN_CACHE_TTL_SECONDS: '30',
      WORKER_ENABLED: 'false',
      UNAUTH_DISPATCHER: 'webhook',
      UNAUTH_WEBHOOK_URL: 'https://nas.example/unauth',
      UNAUTH_WEBHOOK_SECRET: 'a-secret-of-some-length',
      UNAUTH_WEBHOOK_TIMEOUT_MS: '2500',
      UNAUTH_MAX_ATTEMPTS: '3',
      UNAUTH_POLL_INTERVAL_MS: '250',
      UNAUTH_BATCH_SIZE: '50',
      UNAUTH_LEASE_SECONDS: '30',
      UNAUTH_RETRY_BASE_MS: '100',
      EXPIRY_SWEEP_INTERVAL: '0',
      USAGE_SWEEP_INTERVAL: '0',
      SHUTDOWN_TIMEOUT_SECONDS: '3',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '5',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      RATE_LIMIT_REDIS_COOLDOWN_SECONDS: '5',
      TRUST_PROXY: '1',
      CORS_ORIGINS: 'https://admin.example.com, http://localhost:8080',
      DB_TIMEOUT_MS: '2000',
      DB_POOL_SIZE: '40',
      HTTP_HEADERS_TIMEOUT_MS: '4000',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
      HTTP_MAX_CONNECTIONS: '250',
      SECRETS_KEY: ' ' + '0f'.repeat(32) + ' ',
      RADIUS_MAX_SESSION_SECONDS: '3600',
      RADIUS_INTERIM_SECONDS: '120',
      RADIUS_MAX_SESSIONS_PER_USER: '2',
      RADIUS_STALE_AFTER_SECONDS: '600',
      RADIUS_STALE_SWEEP_INTERVAL: '0',
      RADIUS_LOGIN_ATTEMPTS_DAYS: '7',
      RADIUS_PASSWORD_CACHE_SECONDS: '0',
      AUDIT_RETENTION_DAYS: '2555',
      ADMIN_REQUIRE_2FA: 'false',
      OPERATORS_REQUIRE_2FA: 'false',
      CONSOLE_ORIGIN: 'https://console.example.com',
      OPERATOR_ONE_TIME_PASSWORD_HOURS: '1',
      CONSOLE_IDLE_TIMEOUT_MINUTES: '10',
      CONSOLE_SESSION_MAX_HOURS: '2',
      VENUES_REGISTERED_ONLY: 'true',
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      METRICS_MAX_VENUE_LABELS: '5',
      METRICS_DATABASE_READ_SECONDS: '30',
      ARGON2_RADIUS_SLOTS: '3',
      ARGON2_SIGN_IN_SLOTS: '2',
      ARGON2_HASHING_SLOTS: '1',
      SHED_PAGES_DELAY_MS: '0',
      SHED_WRITES_DELAY_MS: '200',
    });
    expect(config).toEqual<AppConfig>({
      port: 8080,
      host: '127.0.0.1',
      database: { type: 'mysql', url: 'mysql://app:secret@db.internal:3307/hotspot', database: 'hotspot' },
      migrationsRun: false,
      bootstrapToken: 'hsp_0123456789abcdefghijklmnopqrstuvwxyz',
      adminEmail: 'Ops@Example.com',
      logLevel: 'debug',
      logFormat: 'json',
      tokenCacheTtlMs: 30_000,
      unauthJobs: {
        workerEnabled: false,
        dispatchers: [
          { type: 'webhook', url: 'https://nas.example/unauth', secret: 'a-secret-of-some-length', timeoutMs: 2500 },
        ],
        maxAttempts: 3,
        pollIntervalMs: 250,
        batchSize: 50,
        leaseMs: 30_000,
        retryBaseMs: 100,
      },
      expirySweepIntervalMs: 0,
      usageSweepIntervalMs: 0,
      portalFormsPerMinute: 10,
      countFoldIntervalMs: 1000,
      shutdownTimeoutMs: 3000,
      rateLimit: {
        perMinute: 0,
        unauthenticatedPerMinute: 5,
        redisUrl: 'redis://127.0.0.1:6379/2',
        redisCoolDownMs: 5000,
      },
      trustProxyHops: 1,
      corsOrigins: ['https://admin.example.com', 'http://localhost:8080'],
      databaseTimeoutMs: 2000,
      databasePoolSize: 40,
      http: { headersTimeoutMs: 4000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 65_000, maxConnections: 250 },
      secretsKey: Buffer.alloc(32, 0x0f),
      secretsKeyFile: null,
      radius: {
        maxSessionSeconds: 3600,
        interimSeconds: 120,
        maxSessionsPerUser: 2,
        staleAfterMs: 600_000,
        staleSweepIntervalMs: 0,
        loginAttemptsRetentionMs: 7 * 86_400_000,
        passwordCacheMs: 0,
      },
      audit: { retentionDays: 2555, pruneIntervalMs: 3_600_000 },
      venuesRegisteredOnly: true,
      metrics: { port: 9464, host: '0.0.0.0', maxVenueLabels: 5, databaseReadMs: 30_000 },
      argon2Slots: { radius: 3, 'sign-in': 2, hashing: 1 },
      shedding: { browse: 0, change: 200 },
      console: {
        adminRequire2fa: false,
        operatorsRequire2fa: false,
        oneTimePasswordLifetimeMs: 3_600_000,
        idleTimeoutMs: 600_000,
        absoluteTimeoutMs: 7_200_000,
        origin: 'https://console.example.com',
      },
      sms: SMS_DEFAULTS,
      phoneCodes: PHONE_CODE_DEFAULTS,
    });
  });

  it('refuses an ADMIN_EMAIL that is no email address', () => {
    expect(problemsOf({ ADMIN_EMAIL: 'admin' })).toEqual([
      { variable: 'ADMIN_EMAIL', message: 'must be an email address, e.g. admin@example.com' },
    ]);
    expect(loadConfig({ ADMIN_EMAIL: 'root@wifi-box' }).adminEmail).toBe('root@wifi-box');
  });

  it('reads SECRETS_KEY as 32 bytes in hex or base64, and refuses other lengths without echoing the value', () => {
    const key = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7 + 250));
    expect(loadConfig({ SECRETS_KEY: key.toString('hex').toUpperCase() }).secretsKey).toEqual(key);
    expect(loadConfig({ SECRETS_KEY: key.toString('base64') }).secretsKey).toEqual(key);
    expect(loadConfig({ SECRETS_KEY: key.toString('base64url') }).secretsKey).toEqual(key);
    for (const bad of [
      '0f'.repeat(31),
      '0f'.repeat(33),
      Buffer.alloc(31).toString('base64'),
      'not a key at all',
      'zz'.repeat(32),
    ]) {
      const problems = problemsOf({ SECRETS_KEY: bad });
      expect(problems).toEqual([
        { variable: 'SECRETS_KEY', message: 'must be 32 bytes as 64 hexadecimal characters or as base64' },
      ]);
    }
  });

  it('needs a URL and a secret for the webhook dispatcher, and refuses bad ones', () => {
    expect(problemsOf({ UNAUTH_DISPATCHER: 'webhook' }).map((p) => p.variable)).toEqual([
      'UNAUTH_WEBHOOK_URL',
      'UNAUTH_WEBHOOK_SECRET',
    ]);
    expect(
      problemsOf({ UNAUTH_DISPATCHER: 'webhook', UNAUTH_WEBHOOK_URL: 'ftp://x', UNAUTH_WEBHOOK_SECRET: 'short' }).map(
        (p) => p.variable,
      ),
    ).toEqual(['UNAUTH_WEBHOOK_URL', 'UNAUTH_WEBHOOK_SECRET']);
    expect(problemsOf({ UNAUTH_DISPATCHER: 'radius,webhook' }).map((p) => p.variable)).toEqual([
      'UNAUTH_WEBHOOK_URL',
      'UNAUTH_WEBHOOK_SECRET',
    ]);
    expect(problemsOf({ UNAUTH_DISPATCHER: 'radius, webhook, log' })).toEqual([
      { variable: 'UNAUTH_WEBHOOK_URL', message: 'is required when UNAUTH_DISPATCHER includes webhook' },
      { variable: 'UNAUTH_WEBHOOK_SECRET', message: 'is required when UNAUTH_DISPATCHER includes webhook' },
    ]);
  });

  it('takes a comma-separated list of dispatchers, in order, with the RFC 5176 settings', () => {
    const config = loadConfig({
      UNAUTH_DISPATCHER: ' radius , webhook',
      UNAUTH_WEBHOOK_URL: 'https://nas.example/unauth',
      UNAUTH_WEBHOOK_SECRET: 'a-secret-of-some-length',
    });
    expect(config.unauthJobs.dispatchers).toEqual([
      { type: 'radius', timeoutMs: 1000, retries: 2 },
      { type: 'webhook', url: 'https://nas.example/unauth', secret: 'a-secret-of-some-length', timeoutMs: 5000 },
    ]);
    expect(
      loadConfig({ UNAUTH_DISPATCHER: 'radius', RADIUS_DM_TIMEOUT_MS: '250', RADIUS_DM_RETRIES: '0' }).unauthJobs
        .dispatchers,
    ).toEqual([{ type: 'radius', timeoutMs: 250, retries: 0 }]);
    expect(problemsOf({ UNAUTH_DISPATCHER: 'radius,radius' })).toEqual([
      { variable: 'UNAUTH_DISPATCHER', message: 'names a dispatcher twice' },
    ]);
    expect(problemsOf({ UNAUTH_DISPATCHER: 'radius,coa' })).toEqual([
      { variable: 'UNAUTH_DISPATCHER', message: 'must be a comma-separated list of log, webhook, radius' },
    ]);
    expect(problemsOf({ UNAUTH_DISPATCHER: 'radius', RADIUS_DM_RETRIES: '11' })).toEqual([
      { variable: 'RADIUS_DM_RETRIES', message: 'must be an integer from 0 to 10' },
    ]);
  });

  it.each([
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['CORS_ORIGINS', 'https://admin.example.com/path'],
    ['CORS_ORIGINS', '*'],
    ['TRUST_PROXY', 'true'],
    ['RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', '-1'],
    ['RATE_LIMIT_REDIS_COOLDOWN_SECONDS', '0'],
    ['RATE_LIMIT_REDIS_COOLDOWN_SECONDS', '3601'],
  ])('refuses %s=%s', (variable, value) => {
    expect(problemsOf({ [variable]: value }).map((p) => p.variable)).toEqual([variable]);
  });

  it.each([
    'WORKER_ENABLED',
    'UNAUTH_MAX_ATTEMPTS',
    'UNAUTH_POLL_INTERVAL_MS',
    'UNAUTH_BATCH_SIZE',
    'EXPIRY_SWEEP_INTERVAL',
    'USAGE_SWEEP_INTERVAL',
    'SHUTDOWN_TIMEOUT_SECONDS',
  ])('refuses a bad %s', (variable) =>
    expect(problemsOf({ [variable]: 'soon' }).map((p) => p.variable)).toEqual([variable]),
  );

  describe('HTTP server limits', () => {
    it.each([
      ['HTTP_HEADERS_TIMEOUT_MS', '99', 'must be an integer from 100 to 600000'],
      ['HTTP_HEADERS_TIMEOUT_MS', '10s', 'must be an integer from 100 to 600000'],
      ['HTTP_REQUEST_TIMEOUT_MS', '0', 'must be an integer from 100 to 3600000'],
      ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '600001', 'must be an integer from 100 to 600000'],
      ['HTTP_MAX_CONNECTIONS', '0', 'must be an integer from 1 to 1000000'],
      ['HTTP_MAX_CONNECTIONS', 'unlimited', 'must be an integer from 1 to 1000000'],
    ])('refuses %s=%j: %s', (variable, value, message) => {
      expect(problemsOf({ [variable]: value })).toEqual([{ variable, message }]);
    });

    it('refuses a header timeout longer than the request timeout, naming both', () => {
      expect(problemsOf({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toEqual([
        { variable: 'HTTP_HEADERS_TIMEOUT_MS', message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (30000)' },
      ]);
      expect(problemsOf({ HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toEqual([
        { variable: 'HTTP_HEADERS_TIMEOUT_MS', message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (1000)' },
      ]);
    });

    it('accepts a header timeout equal to the request timeout', () => {
      expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '5000' }).http).toMatchObject({
        headersTimeoutMs: 5000,
        requestTimeoutMs: 5000,
      });
    });
  });

  it('accepts host names and IPv6 addresses for HOST', () => {
    expect(loadConfig({ HOST: 'api.example.com' }).host).toBe('api.example.com');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '0'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['PORT', '-1'],
    ['HOST', 'bad host'],
    ['HOST', 'host/path'],
    ['DATABASE_URL', 'postgres://db/hotspot'],
    ['MIGRATIONS_RUN', 'maybe'],
    ['BOOTSTRAP_TOKEN', 'too-short'],
    ['BOOTSTRAP_TOKEN', `${'a'.repeat(40)} ${'b'.repeat(10)}`],
    ['BOOTSTRAP_TOKEN', 'x'.repeat(257)],
    ['LOG_LEVEL', 'loud'],
    ['LOG_FORMAT', 'text'],
    ['TOKEN_CACHE_TTL_SECONDS', '-1'],
    ['TOKEN_CACHE_TTL_SECONDS', '3601'],
    ['TOKEN_CACHE_TTL_SECONDS', '1.5'],
  ])('rejects %s=%j naming the variable', (variable, value) => {
    const problems = problemsOf({ [variable]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0].variable).toBe(variable);
    expect(problems[0].message).not.toBe('');
  });

  it('reports every bad variable at once, each named in the error message', () => {
    const env = {
      PORT: 'abc',
      HOST: 'bad host',
      DATABASE_URL: 'ftp://x',
      MIGRATIONS_RUN: 'sometimes',
      BOOTSTRAP_TOKEN: 'short',
      LOG_LEVEL: 'loud',
      TOKEN_CACHE_TTL_SECONDS: 'soon',
    };
    let thrown: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigValidationError);
    const error = thrown as ConfigValidationError;
    expect(error.problems.map((p) => p.variable).sort()).toEqual(Object.keys(env).sort());
    for (const variable of Object.keys(env)) expect(error.message).toContain(`${variable}:`);
  });

  it('never echoes a rejected BOOTSTRAP_TOKEN value in the error', () => {
    const value = 'secret value with spaces that is long enough!!';
    const problems = problemsOf({ BOOTSTRAP_TOKEN: value });
    expect(problems[0].message).not.toContain(value);
  });

  describe('MIGRATIONS_RUN', () => {
    it.each(['true', 'TRUE', '1', 'yes', 'Yes'])('%j means true', (raw) => {
      expect(loadConfig({ MIGRATIONS_RUN: raw }).migrationsRun).toBe(true);
    });
    it.each(['false', 'False', '0', 'no', 'NO'])('%j means false', (raw) => {
      expect(loadConfig({ MIGRATIONS_RUN: raw }).migrationsRun).toBe(false);
    });
    it.each(['on', 'off', '2', 'y'])('%j is refused', (raw) => {
      expect(problemsOf({ MIGRATIONS_RUN: raw }).map((p) => p.variable)).toEqual(['MIGRATIONS_RUN']);
    });
  });

  it('switches the per-token and the per-IP limits off independently, each with its own 0', () => {
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimit).toMatchObject({
      perMinute: 0,
      unauthenticatedPerMinute: 30,
    });
    expect(loadConfig({ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0' }).rateLimit).toMatchObject({
      perMinute: 600,
      unauthenticatedPerMinute: 0,
    });
  });

  describe('TOKEN_CACHE_TTL_SECONDS', () => {
    it('is converted to milliseconds', () => {
      expect(loadConfig({ TOKEN_CACHE_TTL_SECONDS: '1' }).tokenCacheTtlMs).toBe(1000);
      expect(loadConfig({ TOKEN_CACHE_TTL_SECONDS: '3600' }).tokenCacheTtlMs).toBe(3_600_000);
    });
    it('may be 0, which turns the cache off', () => {
      expect(loadConfig({ TOKEN_CACHE_TTL_SECONDS: '0' }).tokenCacheTtlMs).toBe(0);
    });
  });
  // Every message, exactly: an operator reads these to fix the variable.
  it.each([
    [{ PORT: 'abc' }, 'PORT', 'must be an integer from 1 to 65535'],
    [{ HOST: 'bad host' }, 'HOST', 'must be a host name or IP address'],
    [{ DATABASE_URL: 'postgres://db/hotspot' }, 'DATABASE_URL', 'must start with sqlite:, mysql:// or mariadb://'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL', 'sqlite: URL needs a file path, e.g. sqlite:data/hotspot.sqlite'],
    [
      { DATABASE_URL: 'mysql://localhost' },
      'DATABASE_URL',
      'mysql URL needs a database name, e.g. mysql://user:pass@host:3306/hotspot',
    ],
    [{ MIGRATIONS_RUN: 'maybe' }, 'MIGRATIONS_RUN', 'must be true or false'],
    [{ BOOTSTRAP_TOKEN: 'short' }, 'BOOTSTRAP_TOKEN', 'must be 32-256 characters of letters, digits and ._~+/=-'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, verbose'],
    [{ LOG_FORMAT: 'yaml' }, 'LOG_FORMAT', 'must be one of pretty, json'],
    [{ TOKEN_CACHE_TTL_SECONDS: '3601' }, 'TOKEN_CACHE_TTL_SECONDS', 'must be an integer from 0 to 3600'],
    [{ WORKER_ENABLED: 'soon' }, 'WORKER_ENABLED', 'must be true or false'],
    [{ UNAUTH_DISPATCHER: 'Webhook' }, 'UNAUTH_DISPATCHER', 'must be a comma-separated list of log, webhook, radius'],
    [
      {
        UNAUTH_DISPATCHER: 'webhook',
        UNAUTH_WEBHOOK_URL: 'not a url',
        UNAUTH_WEBHOOK_SECRET: 'a-secret-of-some-length',
      },
      'UNAUTH_WEBHOOK_URL',
      'must be an http:// or https:// URL',
    ],
    [
      {
        UNAUTH_DISPATCHER: 'webhook',
        UNAUTH_WEBHOOK_URL: 'https://nas.example',
        UNAUTH_WEBHOOK_SECRET: 'x'.repeat(15),
      },
      'UNAUTH_WEBHOOK_SECRET',
      'must be at least 16 characters',
    ],
    [
      { UNAUTH_DISPATCHER: 'webhook', UNAUTH_WEBHOOK_SECRET: 'a-secret-of-some-length' },
      'UNAUTH_WEBHOOK_URL',
      'is required when UNAUTH_DISPATCHER includes webhook',
    ],
    [
      { UNAUTH_DISPATCHER: 'webhook', UNAUTH_WEBHOOK_URL: 'https://nas.example', UNAUTH_WEBHOOK_SECRET: '  ' },
      'UNAUTH_WEBHOOK_SECRET',
      'is required when UNAUTH_DISPATCHER includes webhook',
    ],
    [
      {
        UNAUTH_DISPATCHER: 'webhook',
        UNAUTH_WEBHOOK_URL: 'https://nas.example',
        UNAUTH_WEBHOOK_SECRET: 'a-secret-of-some-length',
        UNAUTH_WEBHOOK_TIMEOUT_MS: '99',
      },
      'UNAUTH_WEBHOOK_TIMEOUT_MS',
      'must be an integer from 100 to 120000',
    ],
    [{ UNAUTH_MAX_ATTEMPTS: '0' }, 'UNAUTH_MAX_ATTEMPTS', 'must be an integer from 1 to 100'],
    [{ UNAUTH_POLL_INTERVAL_MS: '9' }, 'UNAUTH_POLL_INTERVAL_MS', 'must be an integer from 10 to 600000'],
    [{ UNAUTH_BATCH_SIZE: '1001' }, 'UNAUTH_BATCH_SIZE', 'must be an integer from 1 to 1000'],
    [{ UNAUTH_LEASE_SECONDS: '0' }, 'UNAUTH_LEASE_SECONDS', 'must be an integer from 1 to 86400'],
    [{ UNAUTH_RETRY_BASE_MS: '3600001' }, 'UNAUTH_RETRY_BASE_MS', 'must be an integer from 1 to 3600000'],
    [{ EXPIRY_SWEEP_INTERVAL: '86401' }, 'EXPIRY_SWEEP_INTERVAL', 'must be an integer from 0 to 86400'],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '601' }, 'SHUTDOWN_TIMEOUT_SECONDS', 'must be an integer from 1 to 600'],
    [{ RATE_LIMIT_PER_MINUTE: '1e3' }, 'RATE_LIMIT_PER_MINUTE', 'must be an integer from 0 to 1000000'],
    [
      { RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000001' },
      'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE',
      'must be an integer from 0 to 1000000',
    ],
    [{ REDIS_URL: 'redis host' }, 'REDIS_URL', 'must be a redis:// or rediss:// URL'],
    [
      { RATE_LIMIT_REDIS_COOLDOWN_SECONDS: '0' },
      'RATE_LIMIT_REDIS_COOLDOWN_SECONDS',
      'must be an integer from 1 to 3600',
    ],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY', 'must be an integer from 0 to 10'],
    [{ RADIUS_MAX_SESSION_SECONDS: '59' }, 'RADIUS_MAX_SESSION_SECONDS', 'must be an integer from 60 to 31536000'],
    [{ RADIUS_INTERIM_SECONDS: '86401' }, 'RADIUS_INTERIM_SECONDS', 'must be an integer from 60 to 86400'],
    [{ RADIUS_MAX_SESSIONS_PER_USER: '-1' }, 'RADIUS_MAX_SESSIONS_PER_USER', 'must be an integer from 0 to 1000'],
    [{ RADIUS_STALE_AFTER_SECONDS: '30' }, 'RADIUS_STALE_AFTER_SECONDS', 'must be an integer from 60 to 2592000'],
    [{ RADIUS_STALE_SWEEP_INTERVAL: 'often' }, 'RADIUS_STALE_SWEEP_INTERVAL', 'must be an integer from 0 to 86400'],
    [{ RADIUS_LOGIN_ATTEMPTS_DAYS: '0' }, 'RADIUS_LOGIN_ATTEMPTS_DAYS', 'must be an integer from 1 to 3650'],
    [{ AUDIT_RETENTION_DAYS: '0' }, 'AUDIT_RETENTION_DAYS', 'must be an integer from 1 to 3650'],
    [{ AUDIT_RETENTION_DAYS: '400d' }, 'AUDIT_RETENTION_DAYS', 'must be an integer from 1 to 3650'],
    [{ RADIUS_PASSWORD_CACHE_SECONDS: '-1' }, 'RADIUS_PASSWORD_CACHE_SECONDS', 'must be an integer from 0 to 86400'],
    [
      { CORS_ORIGINS: 'https://admin.example.com, *' },
      'CORS_ORIGINS',
      '"*" is not an origin like https://admin.example.com',
    ],
    [
      { CORS_ORIGINS: 'https://admin.example.com/, ftp:nothing' },
      'CORS_ORIGINS',
      '"https://admin.example.com/" is not an origin like https://admin.example.com',
    ],
    [{ DB_TIMEOUT_MS: '120001' }, 'DB_TIMEOUT_MS', 'must be an integer from 100 to 120000'],
    [{ DB_POOL_SIZE: '0' }, 'DB_POOL_SIZE', 'must be an integer from 1 to 1000'],
  ])('explains %j to the operator', (env, variable, message) => {
    expect(problemsOf(env)).toEqual([{ variable, message }]);
  });

  it('leaves the webhook variables alone while the dispatchers are log and radius (the default) or log', () => {
    const config = loadConfig({
      UNAUTH_WEBHOOK_URL: 'ftp://x',
      UNAUTH_WEBHOOK_SECRET: 'short',
      UNAUTH_WEBHOOK_TIMEOUT_MS: 'x',
    });
    expect(config.unauthJobs.dispatchers.map((dispatcher) => dispatcher.type)).toEqual(['log', 'radius']);
    expect(loadConfig({ UNAUTH_DISPATCHER: 'log', UNAUTH_WEBHOOK_URL: 'ftp://x' }).unauthJobs.dispatchers).toEqual([
      { type: 'log' },
    ]);
  });

  it('normalises the webhook URL and defaults its timeout', () => {
    const config = loadConfig({
      UNAUTH_DISPATCHER: 'webhook',
      UNAUTH_WEBHOOK_URL: 'HTTPS://NAS.Example:443',
      UNAUTH_WEBHOOK_SECRET: 'a-secret-of-some-length',
    });
    expect(config.unauthJobs.dispatchers).toEqual([
      { type: 'webhook', url: 'https://nas.example/', secret: 'a-secret-of-some-length', timeoutMs: 5000 },
    ]);
  });

  it('keeps a REDIS_URL as written', () => {
    expect(loadConfig({ REDIS_URL: 'rediss://user:p%40ss@cache.internal:6380' }).rateLimit.redisUrl).toBe(
      'rediss://user:p%40ss@cache.internal:6380',
    );
  });

  it('still checks the cross-field rules when another variable is bad, in the order of the variables', () => {
    expect(problemsOf({ PORT: 'abc', UNAUTH_DISPATCHER: 'webhook', HTTP_HEADERS_TIMEOUT_MS: '40000' })).toEqual([
      { variable: 'PORT', message: 'must be an integer from 1 to 65535' },
      { variable: 'UNAUTH_WEBHOOK_URL', message: 'is required when UNAUTH_DISPATCHER includes webhook' },
      { variable: 'UNAUTH_WEBHOOK_SECRET', message: 'is required when UNAUTH_DISPATCHER includes webhook' },
      { variable: 'HTTP_HEADERS_TIMEOUT_MS', message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (30000)' },
    ]);
    expect(problemsOf({ DB_TIMEOUT_MS: 'soon', HTTP_HEADERS_TIMEOUT_MS: '40000' })).toEqual([
      { variable: 'DB_TIMEOUT_MS', message: 'must be an integer from 100 to 120000' },
      { variable: 'HTTP_HEADERS_TIMEOUT_MS', message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (30000)' },
    ]);
  });

  it('needs the gateway URL for kannel and http, never echoes it, and keeps the dev outbox out of production', () => {
    expect(problemsOf({ SMS_GATEWAY: 'kannel' })).toEqual([
      { variable: 'SMS_GATEWAY_URL', message: 'is required when SMS_GATEWAY is kannel' },
    ]);
    const bad = problemsOf({ SMS_GATEWAY: 'kannel', SMS_GATEWAY_URL: 'ftp://u:hunter2@x/' });
    expect(bad.map(({ variable }) => variable)).toEqual(['SMS_GATEWAY_URL']);
    expect(JSON.stringify(bad)).not.toContain('hunter2');
    expect(problemsOf({ SMS_GATEWAY: 'http', SMS_GATEWAY_URL: 'https://sms.example/send' })).toEqual([
      { variable: 'SMS_HTTP_BODY', message: 'is required when SMS_GATEWAY is http and SMS_HTTP_METHOD is POST' },
    ]);
    const http = loadConfig({
      SMS_GATEWAY: 'http',
      SMS_GATEWAY_URL: 'https://sms.example/send?to={{to}}',
      SMS_HTTP_METHOD: 'GET',
      SMS_HTTP_HEADERS: '{"Authorization": "Bearer x"}',
      SMS_HTTP_ACCEPT_PATTERN: '^OK',
    }).sms;
    expect(http.http.headers).toEqual({ Authorization: 'Bearer x' });
    expect(http.http.acceptPattern?.test('OK 12')).toBe(true);
    expect(problemsOf({ SMS_HTTP_HEADERS: '["a"]' }).map(({ variable }) => variable)).toEqual(['SMS_HTTP_HEADERS']);
    expect(problemsOf({ NODE_ENV: 'production', SECRETS_KEY: 'a'.repeat(64), SMS_DEV_OUTBOX_FILE: '/tmp/x' })).toEqual([
      {
        variable: 'SMS_DEV_OUTBOX_FILE',
        message: 'must not be set when NODE_ENV=production: it writes the codes in clear',
      },
    ]);
    expect(loadConfig({ PHONE_CODE_COUNTRY_CODES: '90, 49' }).phoneCodes.countryCodes).toEqual(['90', '49']);
    expect(problemsOf({ PHONE_DEFAULT_COUNTRY_CODE: '0090' }).map(({ variable }) => variable)).toEqual([
      'PHONE_DEFAULT_COUNTRY_CODE',
    ]);
  });
});

describe('DATABASE_URL', () => {
  it('sqlite:relative/path is a file relative to the working directory', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:data/other.sqlite' }).database).toEqual({
      type: 'sqlite',
      path: 'data/other.sqlite',
    });
  });

  it('sqlite:///absolute/path and sqlite:/absolute/path are absolute paths', () => {
    expect(parseDatabaseUrl('sqlite:///var/lib/hotspot.sqlite')).toEqual({
      value: { type: 'sqlite', path: '/var/lib/hotspot.sqlite' },
    });
    expect(parseDatabaseUrl('sqlite:/var/lib/hotspot.sqlite')).toEqual({
      value: { type: 'sqlite', path: '/var/lib/hotspot.sqlite' },
    });
  });

  it('sqlite://relative/path is relative to the working folder', () => {
    expect(parseDatabaseUrl('sqlite://data/x.sqlite')).toEqual({ value: { type: 'sqlite', path: 'data/x.sqlite' } });
  });

  it('sqlite::memory: is an in-memory database', () => {
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ value: { type: 'sqlite', path: ':memory:' } });
  });

  it('sqlite: without a path is refused', () => {
    expect(problemsOf({ DATABASE_URL: 'sqlite:' }).map((p) => p.variable)).toEqual(['DATABASE_URL']);
  });

  it('mysql:// keeps credentials and names the database', () => {
    expect(parseDatabaseUrl('mysql://user:p%40ss@localhost:3306/hotspot')).toEqual({
      value: { type: 'mysql', url: 'mysql://user:p%40ss@localhost:3306/hotspot', database: 'hotspot' },
    });
  });

  it('mysql:// with a malformed %-escape in the user or password is refused, naming neither value', () => {
    for (const raw of ['mysql://root:pa%ZZss@127.0.0.1:3306/db', 'mysql://r%E0ot:secret@127.0.0.1/db']) {
      const result = parseDatabaseUrl(raw);
      expect(result).toEqual({
        error: 'mysql URL has a malformed %-escape in its user or password (write % as %25)',
      });
    }
  });

  it('mariadb:// is a MariaDB server reached with the mysql protocol', () => {
    expect(parseDatabaseUrl('mariadb://root@127.0.0.1/hotspot_db')).toEqual({
      value: { type: 'mariadb', url: 'mysql://root@127.0.0.1/hotspot_db', database: 'hotspot_db' },
    });
  });

  it.each([
    ['mysql://localhost:3306', 'no database'],
    ['mysql://localhost:3306/', 'empty database'],
    ['mysql://localhost/bad name', 'database name with a space'],
    ['mysql://localhost/a;drop', 'database name with punctuation'],
    ['mariadb://localhost/', 'empty database on mariadb'],
  ])('refuses %j (%s)', (url) => {
    const parsed = parseDatabaseUrl(url);
    expect(parsed).toEqual({ error: expect.stringContaining('database name') });
    expect(problemsOf({ DATABASE_URL: url }).map((p) => p.variable)).toEqual(['DATABASE_URL']);
  });

  it('refuses a database name with a malformed escape, naming the variable', () => {
    expect(parseDatabaseUrl('mysql://db.example/%E0')).toEqual({ error: expect.stringContaining('database name') });
    expect(problemsOf({ DATABASE_URL: 'mysql://db.example/%E0' }).map((p) => p.variable)).toEqual(['DATABASE_URL']);
  });

  it('refuses a mysql URL without a host', () => {
    expect(parseDatabaseUrl('mysql:///hotspot')).toEqual({ error: expect.any(String) });
  });

  it.each(['postgres://localhost/hotspot', 'data/hotspot.sqlite', 'MYSQL://localhost/hotspot', 'sqlite3:x.db'])(
    'refuses the scheme of %j',
    (url) => {
      expect(parseDatabaseUrl(url)).toEqual({ error: 'must start with sqlite:, mysql:// or mariadb://' });
    },
  );
});

describe('.env.example', () => {
  it('lists exactly the variables the service reads', async () => {
    const { readFileSync } = await import('node:fs');
    const listed = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    const read = new Set<string>();
    // The webhook dispatcher's variables are read only when it is chosen.
    const values: Record<string, string> = {
      UNAUTH_DISPATCHER: 'webhook',
      UNAUTH_WEBHOOK_URL: 'https://nas.example/unauth',
      UNAUTH_WEBHOOK_SECRET: 'a-secret-of-some-length',
    };
    loadConfig(
      new Proxy(values, {
        get: (target, key) => {
          read.add(String(key));
          return target[String(key)];
        },
      }),
    );
    expect([...listed].sort()).toEqual([...read].sort());
  });

  it('lists every variable of the schema, and only those', async () => {
    const listed = await listedInEnvExample();
    expect([...configVariables].sort()).toEqual([...listed].sort());
  });
});

/** The variables .env.example sets (`NAME=` lines; comments are not). */
async function listedInEnvExample(): Promise<string[]> {
  const { readFileSync } = await import('node:fs');
  return readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}
