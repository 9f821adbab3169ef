import { parseSecretsKey } from './secrets-key.js';

export type DatabaseConfig =
  | { type: 'sqlite'; path: string }
  | { type: 'mysql' | 'mariadb'; url: string; database: string };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'verbose';

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  migrationsRun: boolean;
  bootstrapToken: string | null;
  logLevel: LogLevel;
  /** How long a verified token is trusted without asking the database again. */
  tokenCacheTtlMs: number;
  unauthJobs: UnauthJobsConfig;
  /** How often users whose expiresAt has passed are expired; 0 turns the sweep off. */
  expirySweepIntervalMs: number;
  /** The longest a graceful shutdown may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  rateLimit: RateLimitConfig;
  /** Express `trust proxy`: how many reverse proxies stand in front (0: use the peer address). */
  trustProxyHops: number;
  /** Origins allowed by CORS; empty: CORS stays off. */
  corsOrigins: string[];
  /** A database call that takes longer fails the request with 503 instead of hanging it. */
  databaseTimeoutMs: number;
  http: HttpServerConfig;
  /** AES-256-GCM key for secrets stored in the database (NAS shared secrets); null: stored in clear. */
  secretsKey: Buffer | null;
}

/** Limits of the HTTP server, so slow or idle clients cannot hold its sockets (slowloris). */
export interface HttpServerConfig {
  /** Time a client has to send the request's header block. */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request, body included. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open after an answer. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; further ones are closed as soon as they are accepted. */
  maxConnections: number;
}

export interface RateLimitConfig {
  /** Requests per minute per token; 0 turns the per-token limit off. */
  perMinute: number;
  /** Requests per minute per client IP without a valid token (guessing tokens is slow); 0 turns it off. */
  unauthenticatedPerMinute: number;
  /** Counters live here when set, so instances share them; otherwise in process memory. */
  redisUrl: string | null;
  /** After Redis fails to answer, how long counting stays in memory before Redis is tried again. */
  redisCoolDownMs: number;
}

export type UnauthDispatcherConfig =
  | { type: 'log' }
  | { type: 'webhook'; url: string; secret: string; timeoutMs: number };

export interface UnauthJobsConfig {
  /** Whether this process runs the job worker (the app does by default; `npm run worker` always). */
  workerEnabled: boolean;
  dispatcher: UnauthDispatcherConfig;
  maxAttempts: number;
  pollIntervalMs: number;
  batchSize: number;
  /** How long a claimed job stays reserved for its worker; after that another may claim it. */
  leaseMs: number;
  /** First retry delay; each later one doubles, with jitter. */
  retryBaseMs: number;
}

const DEFAULT_DATABASE: DatabaseConfig = { type: 'sqlite', path: 'data/hotspot.sqlite' };

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'verbose'];
const BOOTSTRAP_TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{32,256}$/;
const HOSTNAME_PATTERN = /^[A-Za-z0-9.:-]{1,253}$/;

/** Raised when an environment variable holds a value the service cannot run with. */
export class ConfigValidationError extends Error {
  constructor(readonly problems: ReadonlyArray<{ variable: string; message: string }>) {
    super(
      'Invalid configuration:\n' +
        problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n'),
    );
    this.name = 'ConfigValidationError';
  }
}

type Env = Record<string, string | undefined>;
type Parsed<T> = { value: T } | { error: string };

/**
 * Reads and validates the service's configuration from environment variables.
 * Every problem is collected so that one start-up names all the bad variables at once.
 */
export function loadConfig(env: Env): AppConfig {
  const problems: Array<{ variable: string; message: string }> = [];
  const read = <T>(variable: string, fallback: T, parse: (raw: string) => Parsed<T>): T => {
    const raw = env[variable]?.trim();
    if (raw === undefined || raw === '') return fallback;
    const parsed = parse(raw);
    if ('error' in parsed) {
      problems.push({ variable, message: parsed.error });
      return fallback;
    }
    return parsed.value;
  };

  const config: AppConfig = {
    port: read('PORT', 3000, (raw) => parseIntegerInRange(raw, 1, 65535)),
    host: read<string>('HOST', '0.0.0.0', (raw) =>
      HOSTNAME_PATTERN.test(raw) ? { value: raw } : { error: 'must be a host name or IP address' },
    ),
    database: read('DATABASE_URL', DEFAULT_DATABASE, parseDatabaseUrl),
    migrationsRun: read('MIGRATIONS_RUN', true, parseBoolean),
    bootstrapToken: read<string | null>('BOOTSTRAP_TOKEN', null, (raw) =>
      BOOTSTRAP_TOKEN_PATTERN.test(raw)
        ? { value: raw }
        : { error: 'must be 32-256 characters of letters, digits and ._~+/=-' },
    ),
    logLevel: read<LogLevel>('LOG_LEVEL', 'info', (raw) => {
      const level = raw.toLowerCase() as LogLevel;
      return LOG_LEVELS.includes(level)
        ? { value: level }
        : { error: `must be one of ${LOG_LEVELS.join(', ')}` };
    }),
    tokenCacheTtlMs:
      read('TOKEN_CACHE_TTL_SECONDS', 10, (raw) => parseIntegerInRange(raw, 0, 3600)) * 1000,
    unauthJobs: {
      workerEnabled: read('WORKER_ENABLED', true, parseBoolean),
      dispatcher: readDispatcher(env, read, problems),
      maxAttempts: read('UNAUTH_MAX_ATTEMPTS', 8, (raw) => parseIntegerInRange(raw, 1, 100)),
      pollIntervalMs: read('UNAUTH_POLL_INTERVAL_MS', 1000, (raw) => parseIntegerInRange(raw, 10, 600_000)),
      batchSize: read('UNAUTH_BATCH_SIZE', 20, (raw) => parseIntegerInRange(raw, 1, 1000)),
      leaseMs: read('UNAUTH_LEASE_SECONDS', 60, (raw) => parseIntegerInRange(raw, 1, 86_400)) * 1000,
      retryBaseMs: read('UNAUTH_RETRY_BASE_MS', 5000, (raw) => parseIntegerInRange(raw, 1, 3_600_000)),
    },
    expirySweepIntervalMs:
      read('EXPIRY_SWEEP_INTERVAL', 15, (raw) => parseIntegerInRange(raw, 0, 86_400)) * 1000,
    shutdownTimeoutMs: read('SHUTDOWN_TIMEOUT_SECONDS', 10, (raw) => parseIntegerInRange(raw, 1, 600)) * 1000,
    rateLimit: {
      perMinute: read('RATE_LIMIT_PER_MINUTE', 600, (raw) => parseIntegerInRange(raw, 0, 1_000_000)),
      unauthenticatedPerMinute: read('RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', 30, (raw) =>
        parseIntegerInRange(raw, 0, 1_000_000),
      ),
      redisUrl: read<string | null>('REDIS_URL', null, parseRedisUrl),
      redisCoolDownMs:
        read('RATE_LIMIT_REDIS_COOLDOWN_SECONDS', 30, (raw) => parseIntegerInRange(raw, 1, 3600)) * 1000,
    },
    trustProxyHops: read('TRUST_PROXY', 0, (raw) => parseIntegerInRange(raw, 0, 10)),
    corsOrigins: read<string[]>('CORS_ORIGINS', [], parseOrigins),
    databaseTimeoutMs: read('DB_TIMEOUT_MS', 5000, (raw) => parseIntegerInRange(raw, 100, 120_000)),
    http: readHttpServer(read, problems),
    secretsKey: read<Buffer | null>('SECRETS_KEY', null, parseSecretsKey),
  };
  if (problems.length > 0) throw new ConfigValidationError(problems);
  return config;
}

const DISPATCHERS = ['log', 'webhook'] as const;
const MIN_WEBHOOK_SECRET_LENGTH = 16;

type Read = <T>(variable: string, fallback: T, parse: (raw: string) => Parsed<T>) => T;

/** UNAUTH_DISPATCHER, and for `webhook` its URL (http or https), secret and timeout. */
function readDispatcher(
  env: Env,
  read: Read,
  problems: Array<{ variable: string; message: string }>,
): UnauthDispatcherConfig {
  const type = read<(typeof DISPATCHERS)[number]>('UNAUTH_DISPATCHER', 'log', (raw) =>
    (DISPATCHERS as readonly string[]).includes(raw)
      ? { value: raw as (typeof DISPATCHERS)[number] }
      : { error: `must be one of ${DISPATCHERS.join(', ')}` },
  );
  if (type === 'log') return { type };
  const url = read<string | null>('UNAUTH_WEBHOOK_URL', null, parseHttpUrl);
  const secret = read<string | null>('UNAUTH_WEBHOOK_SECRET', null, (raw) =>
    raw.length >= MIN_WEBHOOK_SECRET_LENGTH
      ? { value: raw }
      : { error: `must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters` },
  );
  const timeoutMs = read('UNAUTH_WEBHOOK_TIMEOUT_MS', 5000, (raw) => parseIntegerInRange(raw, 100, 120_000));
  if (url === null && !env.UNAUTH_WEBHOOK_URL?.trim()) {
    problems.push({ variable: 'UNAUTH_WEBHOOK_URL', message: 'is required when UNAUTH_DISPATCHER is webhook' });
  }
  if (secret === null && !env.UNAUTH_WEBHOOK_SECRET?.trim()) {
    problems.push({ variable: 'UNAUTH_WEBHOOK_SECRET', message: 'is required when UNAUTH_DISPATCHER is webhook' });
  }
  return { type, url: url ?? '', secret: secret ?? '', timeoutMs };
}

/** The HTTP server's timeouts and connection limit; the header block must fit in the request's time. */
function readHttpServer(read: Read, problems: Array<{ variable: string; message: string }>): HttpServerConfig {
  const http: HttpServerConfig = {
    headersTimeoutMs: read('HTTP_HEADERS_TIMEOUT_MS', 10_000, (raw) => parseIntegerInRange(raw, 100, 600_000)),
    requestTimeoutMs: read('HTTP_REQUEST_TIMEOUT_MS', 30_000, (raw) => parseIntegerInRange(raw, 100, 3_600_000)),
    keepAliveTimeoutMs: read('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5000, (raw) => parseIntegerInRange(raw, 100, 600_000)),
    maxConnections: read('HTTP_MAX_CONNECTIONS', 1000, (raw) => parseIntegerInRange(raw, 1, 1_000_000)),
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    problems.push({
      variable: 'HTTP_HEADERS_TIMEOUT_MS',
      message: `must not exceed HTTP_REQUEST_TIMEOUT_MS (${http.requestTimeoutMs})`,
    });
  }
  return http;
}

function parseRedisUrl(raw: string): Parsed<string> {
  try {
    const url = new URL(raw);
    if (url.protocol === 'redis:' || url.protocol === 'rediss:') return { value: raw };
  } catch {
    // falls through to the error below
  }
  return { error: 'must be a redis:// or rediss:// URL' };
}

/** A comma-separated list of exact origins such as https://admin.example.com. */
function parseOrigins(raw: string): Parsed<string[]> {
  const origins = raw.split(',').map((origin) => origin.trim()).filter((origin) => origin !== '');
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return { error: `"${origin}" is not an origin like https://admin.example.com` };
    }
    if (url.origin !== origin) return { error: `"${origin}" is not an origin like https://admin.example.com` };
  }
  return { value: origins };
}

function parseHttpUrl(raw: string): Parsed<string> {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { value: url.toString() };
  } catch {
    // falls through to the error below
  }
  return { error: 'must be an http:// or https:// URL' };
}

export function parseDatabaseUrl(raw: string): Parsed<DatabaseConfig> {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path === '') return { error: 'sqlite: URL needs a file path, e.g. sqlite:data/hotspot.sqlite' };
    return { value: { type: 'sqlite', path } };
  }
  if (raw.startsWith('mysql://') || raw.startsWith('mariadb://')) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { error: 'is not a valid URL' };
    }
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (!url.hostname) return { error: 'mysql URL needs a host' };
    if (!/^[A-Za-z0-9_$-]{1,64}$/.test(database)) {
      return { error: 'mysql URL needs a database name, e.g. mysql://user:pass@host:3306/hotspot' };
    }
    const type = url.protocol === 'mariadb:' ? 'mariadb' : 'mysql';
    url.protocol = 'mysql:';
    return { value: { type, url: url.toString(), database } };
  }
  return { error: 'must start with sqlite:, mysql:// or mariadb://' };
}

function parseIntegerInRange(raw: string, min: number, max: number): Parsed<number> {
  if (!/^\d+$/.test(raw)) return { error: `must be an integer from ${min} to ${max}` };
  const value = Number(raw);
  return value >= min && value <= max ? { value } : { error: `must be an integer from ${min} to ${max}` };
}

function parseBoolean(raw: string): Parsed<boolean> {
  const lowered = raw.toLowerCase();
  if (['true', '1', 'yes'].includes(lowered)) return { value: true };
  if (['false', '0', 'no'].includes(lowered)) return { value: false };
  return { error: 'must be true or false' };
}
