import { isEmail } from 'class-validator';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseSecretsKey } from './secrets-key.js';
import { secretsKeyFilePath } from './secrets-key-file.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'verbose'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * MySQL connections per process. Each request holds its connection from its first statement to its
 * last, event-loop waits included: with 32 requests in flight, 10 connections kept reads queueing
 * (get one user served 15 % less on 2 cores than with 20).
 */
export const DEFAULT_DB_POOL_SIZE = 20;
export const DEFAULT_DB_TIMEOUT_MS = 5000;
/** Often enough that the list reads few unfolded changes, rarely enough to cost nothing noticeable. */
const COUNT_FOLD_INTERVAL_MS = 1000;
/**
 * The queueing delay (ms: the event loop's, or the wait for a database connection, whichever is
 * longer, at its smallest over 250 ms) above which console pages and v1 lists, then v1 writes, start
 * being turned away. A RADIUS login waits in FreeRADIUS for 250 ms at most: shedding must begin
 * well before logins queue that long.
 */
const DEFAULT_SHED_PAGES_DELAY_MS = 20;
const DEFAULT_SHED_WRITES_DELAY_MS = 50;

/** argon2id threads per work class (see PasswordHasher). */
export interface Argon2Slots {
  radius: number;
  'sign-in': number;
  hashing: number;
}

/**
 * On `cores` cores: a thread per core for logins (they run first); one for operator sign-ins; twice
 * the cores, up to 8, for hashing, which runs only on cores nothing else wants, so that a batch
 * still uses the whole machine when it is otherwise idle.
 */
export function defaultArgon2Slots(cores: number): Argon2Slots {
  return { radius: Math.max(1, cores), 'sign-in': 1, hashing: Math.min(8, Math.max(2, 2 * cores)) };
}

/** How often the audit retention sweep deletes events past AUDIT_RETENTION_DAYS (retention is counted in days). */
const AUDIT_PRUNE_INTERVAL_MS = 3_600_000;

export type DatabaseConfig =
  { type: 'sqlite'; path: string } | { type: 'mysql' | 'mariadb'; url: string; database: string };

export type UnauthDispatcherConfig =
  | { type: 'log' }
  | { type: 'webhook'; url: string; secret: string; timeoutMs: number }
  /** RFC 5176 Disconnect/CoA-Requests: the first wait for an answer (doubling), and the retransmissions. */
  | { type: 'radius'; timeoutMs: number; retries: number };

/** Raised when an environment variable holds a value the service cannot run with. */
export class ConfigValidationError extends Error {
  constructor(readonly problems: ReadonlyArray<{ variable: string; message: string }>) {
    super('Invalid configuration:\n' + problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n'));
    this.name = 'ConfigValidationError';
  }
}

type Env = Record<string, string | undefined>;
type Parsed<T> = { value: T } | { error: string };

/** A whole number from min to max in plain digits: no sign, decimals or exponent. */
function integer(min: number, max: number) {
  const error = `must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d+$/, { error })
    .transform(Number)
    .pipe(z.number().min(min, { error }).max(max, { error }));
}

const flag = z.stringbool({
  truthy: ['true', '1', 'yes'],
  falsy: ['false', '0', 'no'],
  error: 'must be true or false',
});

const matching = (pattern: RegExp, error: string) => z.string().regex(pattern, { error });

/** A comma-separated list of exact origins such as https://admin.example.com. */
const origins = z
  .string()
  .transform((raw) => raw.split(/\s*,\s*/).filter((origin) => origin !== ''))
  .pipe(
    z.array(
      z.string().refine((origin) => URL.canParse(origin) && new URL(origin).origin === origin, {
        error: (issue) => `"${String(issue.input)}" is not an origin like https://admin.example.com`,
      }),
    ),
  );

/** A string read by one of this file's parse functions, whose error message becomes the issue. */
function parsedBy<T>(parse: (raw: string) => Parsed<T>) {
  return z.string().transform((raw, context) => {
    const parsed = parse(raw);
    if ('value' in parsed) return parsed.value;
    context.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  });
}

const databaseUrl = parsedBy(parseDatabaseUrl);

const REQUIRED_FOR_WEBHOOK = 'is required when UNAUTH_DISPATCHER includes webhook';

export const DISPATCHER_NAMES = ['log', 'webhook', 'radius'] as const;

/** `log, webhook` → ['log', 'webhook']: known names, each once. */
const dispatcherList = z
  .string()
  .transform((raw) => raw.split(',').map((name) => name.trim()))
  .pipe(
    z
      .array(z.enum(DISPATCHER_NAMES, { error: `must be a comma-separated list of ${DISPATCHER_NAMES.join(', ')}` }))
      .refine((names) => new Set(names).size === names.length, { error: 'names a dispatcher twice' }),
  );

const webhookUrl = z.url({ protocol: /^https?$/, normalize: true, error: 'must be an http:// or https:// URL' });
const webhookSecret = z.string().min(16, { error: 'must be at least 16 characters' });
const webhookTimeout = integer(100, 120_000).default(5000);

/*
 * Every variable with its default, in three parts around UNAUTH_DISPATCHER: the webhook's variables
 * are read (and required) only when it is in the list. Problems are reported in this order.
 */
const service = z.object({
  PORT: integer(1, 65535).default(3000),
  HOST: matching(/^[A-Za-z0-9.:-]{1,253}$/, 'must be a host name or IP address').default('0.0.0.0'),
  DATABASE_URL: databaseUrl.default({ type: 'sqlite', path: 'data/hotspot.sqlite' }),
  MIGRATIONS_RUN: flag.default(true),
  // A fixed message: the value is a secret.
  BOOTSTRAP_TOKEN: matching(
    /^[A-Za-z0-9._~+/=-]{32,256}$/,
    'must be 32-256 characters of letters, digits and ._~+/=-',
  ).optional(),
  ADMIN_EMAIL: z
    .string()
    .max(254, { error: 'must be at most 254 characters' })
    .refine((value) => isEmail(value, { require_tld: false, allow_ip_domain: false }), {
      error: 'must be an email address, e.g. admin@example.com',
    })
    .default('admin@localhost'),
  LOG_LEVEL: z
    .string()
    .toLowerCase()
    .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }))
    .default('info'),
  // Unset: pretty when the log goes to a terminal, JSON lines otherwise.
  LOG_FORMAT: z
    .string()
    .toLowerCase()
    .pipe(z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` }))
    .optional(),
  TOKEN_CACHE_TTL_SECONDS: integer(0, 3600).default(10),
  WORKER_ENABLED: flag.default(true),
});

const dispatcherVariables = z.object({
  // Both by default: a log line per job, and the Disconnect-Request each registered NAS with a CoA port needs.
  UNAUTH_DISPATCHER: dispatcherList.default(['log', 'radius']),
  UNAUTH_WEBHOOK_URL: z.string().optional(),
  UNAUTH_WEBHOOK_SECRET: z.string().optional(),
  UNAUTH_WEBHOOK_TIMEOUT_MS: z.string().optional(),
  RADIUS_DM_TIMEOUT_MS: integer(100, 60_000).default(1000),
  RADIUS_DM_RETRIES: integer(0, 10).default(2),
});

/** The configured dispatchers, in the order given; the webhook's variables are checked only when it is one. */
const dispatcher = dispatcherVariables.transform((env, context) => {
  const checked = <T>(variable: string, schema: z.ZodType<T>, value: string | undefined, required: boolean): T => {
    if (required && value === undefined) {
      context.addIssue({ code: 'custom', path: [variable], message: REQUIRED_FOR_WEBHOOK });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    context.addIssue({ code: 'custom', path: [variable], message: parsed.error.issues[0].message });
    return z.NEVER;
  };
  const dispatchers = env.UNAUTH_DISPATCHER.map((name): UnauthDispatcherConfig => {
    switch (name) {
      case 'log':
        return { type: 'log' };
      case 'radius':
        return { type: 'radius', timeoutMs: env.RADIUS_DM_TIMEOUT_MS, retries: env.RADIUS_DM_RETRIES };
      case 'webhook':
        return {
          type: 'webhook',
          url: checked('UNAUTH_WEBHOOK_URL', webhookUrl, env.UNAUTH_WEBHOOK_URL, true),
          secret: checked('UNAUTH_WEBHOOK_SECRET', webhookSecret, env.UNAUTH_WEBHOOK_SECRET, true),
          timeoutMs: checked('UNAUTH_WEBHOOK_TIMEOUT_MS', webhookTimeout, env.UNAUTH_WEBHOOK_TIMEOUT_MS, false),
        };
    }
  });
  return { dispatchers };
});

const jobsAndLimits = z
  .object({
    UNAUTH_MAX_ATTEMPTS: integer(1, 100).default(8),
    UNAUTH_POLL_INTERVAL_MS: integer(10, 600_000).default(1000),
    UNAUTH_BATCH_SIZE: integer(1, 1000).default(20),
    UNAUTH_LEASE_SECONDS: integer(1, 86_400).default(60),
    UNAUTH_RETRY_BASE_MS: integer(1, 3_600_000).default(5000),
    EXPIRY_SWEEP_INTERVAL: integer(0, 86_400).default(15),
    USAGE_SWEEP_INTERVAL: integer(0, 3600).default(10),
    PORTAL_FORMS_PER_MINUTE: integer(0, 10_000).default(10),
    SHUTDOWN_TIMEOUT_SECONDS: integer(1, 600).default(10),
    RATE_LIMIT_PER_MINUTE: integer(0, 1_000_000).default(600),
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: integer(0, 1_000_000).default(30),
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    RATE_LIMIT_REDIS_COOLDOWN_SECONDS: integer(1, 3600).default(30),
    TRUST_PROXY: integer(0, 10).default(0),
    CORS_ORIGINS: origins.default([]),
    DB_TIMEOUT_MS: integer(100, 120_000).default(DEFAULT_DB_TIMEOUT_MS),
    DB_POOL_SIZE: integer(1, 1000).default(DEFAULT_DB_POOL_SIZE),
    HTTP_HEADERS_TIMEOUT_MS: integer(100, 600_000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: integer(100, 3_600_000).default(30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(100, 600_000).default(5000),
    HTTP_MAX_CONNECTIONS: integer(1, 1_000_000).default(1000),
    // Its error never repeats the value: it is a secret.
    SECRETS_KEY: parsedBy(parseSecretsKey).optional(),
    SECRETS_KEY_FILE: z.string().max(4096, 'must be a path of at most 4096 characters').optional(),
    NODE_ENV: z.string().optional(),
    RADIUS_MAX_SESSION_SECONDS: integer(60, 31_536_000).default(86_400),
    RADIUS_INTERIM_SECONDS: integer(60, 86_400).default(300),
    RADIUS_MAX_SESSIONS_PER_USER: integer(0, 1000).default(0),
    RADIUS_STALE_AFTER_SECONDS: integer(60, 2_592_000).optional(),
    RADIUS_STALE_SWEEP_INTERVAL: integer(0, 86_400).default(60),
    RADIUS_LOGIN_ATTEMPTS_DAYS: integer(1, 3650).default(30),
    RADIUS_PASSWORD_CACHE_SECONDS: integer(0, 86_400).default(300),
    AUDIT_RETENTION_DAYS: integer(1, 3650).default(400),
    ADMIN_REQUIRE_2FA: flag.default(true),
    OPERATORS_REQUIRE_2FA: flag.default(true),
    OPERATOR_ONE_TIME_PASSWORD_HOURS: integer(1, 720).default(72),
    CONSOLE_IDLE_TIMEOUT_MINUTES: integer(1, 1440).default(30),
    CONSOLE_SESSION_MAX_HOURS: integer(1, 720).default(12),
    CONSOLE_ORIGIN: z
      .string()
      .refine(
        (origin) =>
          URL.canParse(origin) && new URL(origin).origin === origin && !/^\d|\[/.test(new URL(origin).hostname),
        {
          error: 'must be the origin browsers reach the console at, by name, like https://console.example.com',
        },
      )
      .optional(),
    VENUES_REGISTERED_ONLY: flag.default(false),
    ARGON2_RADIUS_SLOTS: integer(1, 256).optional(),
    ARGON2_SIGN_IN_SLOTS: integer(1, 256).optional(),
    ARGON2_HASHING_SLOTS: integer(1, 256).optional(),
    SHED_PAGES_DELAY_MS: integer(0, 60_000).default(DEFAULT_SHED_PAGES_DELAY_MS),
    SHED_WRITES_DELAY_MS: integer(0, 60_000).default(DEFAULT_SHED_WRITES_DELAY_MS),
  })
  .superRefine(
    (env, context) => {
      // The header block is part of the request: it must arrive within the request's time.
      if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
        const message = `must not exceed HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS})`;
        context.addIssue({ code: 'custom', path: ['HTTP_HEADERS_TIMEOUT_MS'], message });
      }
    },
    // Also checked when other variables are bad, so that one start-up names every problem.
    { when: ({ issues }) => !issues.some(({ path }) => /^HTTP_(HEADERS|REQUEST)_TIMEOUT_MS$/.test(String(path?.[0]))) },
  )
  .superRefine(
    (env, context) => {
      if (env.SECRETS_KEY !== undefined && env.SECRETS_KEY_FILE !== undefined) {
        const message = 'set either SECRETS_KEY or SECRETS_KEY_FILE, not both';
        context.addIssue({ code: 'custom', path: ['SECRETS_KEY_FILE'], message });
      }
      // In production a secret is never stored in clear, nor under a key that sits unasked beside the data.
      if (env.NODE_ENV === 'production' && env.SECRETS_KEY === undefined && env.SECRETS_KEY_FILE === undefined) {
        const message =
          'must be set (or SECRETS_KEY_FILE) when NODE_ENV=production: NAS secrets, TOTP keys and voucher passwords are sealed with it';
        context.addIssue({ code: 'custom', path: ['SECRETS_KEY'], message });
      }
    },
    { when: ({ issues }) => !issues.some(({ path }) => /^SECRETS_KEY(_FILE)?$/.test(String(path?.[0]))) },
  );

/** The Prometheus listener (src/metrics): off unless METRICS_PORT is set. */
const metricsVariables = z.object({
  METRICS_PORT: integer(0, 65535).optional(),
  METRICS_HOST: matching(/^[A-Za-z0-9.:-]{1,253}$/, 'must be a host name or IP address').default('127.0.0.1'),
  METRICS_MAX_VENUE_LABELS: integer(0, 10_000).default(100),
  METRICS_DATABASE_READ_SECONDS: integer(1, 3600).default(15),
});

/** SMS delivery (src/sms) and the phone codes sent through it (src/phone-verification). */
export const SMS_GATEWAYS = ['log', 'kannel', 'http'] as const;
export type SmsGatewayName = (typeof SMS_GATEWAYS)[number];

/** A number of code sends allowed per window of minutes; 0 sends: no limit. */
const sendLimit = integer(0, 1_000_000);
const sendWindow = integer(1, 10_080);
/** Country calling codes: 1-3 digits, the first not 0. */
const callingCode = matching(/^[1-9]\d{0,2}$/, 'must be a country calling code such as 90 (1-3 digits)');

const smsVariables = z.object({
  SMS_GATEWAY: z.enum(SMS_GATEWAYS, { error: `must be one of ${SMS_GATEWAYS.join(', ')}` }).default('log'),
  // Carries Kannel's username and password: its error never repeats the value.
  SMS_GATEWAY_URL: z
    .string()
    .refine((url) => /^https?:\/\//.test(url) && URL.canParse(url.replace(/\{\{\w+\}\}/g, 'x')), {
      error: 'must be an http:// or https:// URL (for http, {{to}}, {{text}}… may stand in it)',
    })
    .optional(),
  SMS_SENDER: matching(/^[\w +.-]{1,16}$/, 'must be 1-16 letters, digits, spaces or +.-_').optional(),
  SMS_HTTP_METHOD: z.enum(['GET', 'POST', 'PUT'], { error: 'must be GET, POST or PUT' }).default('POST'),
  SMS_HTTP_CONTENT_TYPE: z.string().max(200).default('application/x-www-form-urlencoded'),
  SMS_HTTP_HEADERS: parsedBy(parseHeaderTemplates).default({}),
  SMS_HTTP_BODY: z.string().max(10_000).optional(),
  SMS_HTTP_ACCEPT_PATTERN: parsedBy(parsePattern).optional(),
  SMS_TIMEOUT_MS: integer(100, 120_000).default(10_000),
  SMS_MAX_ATTEMPTS: integer(1, 20).default(4),
  SMS_RETRY_BASE_MS: integer(100, 600_000).default(5000),
  SMS_POLL_INTERVAL_MS: integer(10, 600_000).default(1000),
  SMS_REPORT_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http:// or https:// address the gateway reaches this service at' })
    .optional(),
  SMS_DEV_OUTBOX_FILE: z.string().max(4096, 'must be a path of at most 4096 characters').optional(),
  PHONE_CODE_PHONE_LIMIT: sendLimit.default(5),
  PHONE_CODE_PHONE_WINDOW_MINUTES: sendWindow.default(60),
  PHONE_CODE_DEVICE_LIMIT: sendLimit.default(10),
  PHONE_CODE_DEVICE_WINDOW_MINUTES: sendWindow.default(60),
  PHONE_CODE_VENUE_LIMIT: sendLimit.default(500),
  PHONE_CODE_VENUE_WINDOW_MINUTES: sendWindow.default(60),
  PHONE_CODE_PREFIX_LIMIT: sendLimit.default(100),
  PHONE_CODE_PREFIX_WINDOW_MINUTES: sendWindow.default(60),
  PHONE_CODE_RESEND_SECONDS: integer(0, 3600).default(60),
  PHONE_CODE_COUNTRY_CODES: z
    .string()
    .transform((raw) => raw.split(/\s*,\s*/).filter((code) => code !== ''))
    .pipe(z.array(callingCode))
    .default([]),
  PHONE_DEFAULT_COUNTRY_CODE: callingCode.optional(),
});

/** The gateways that send through a URL need it; the HTTP provider's POST or PUT needs a body. */
const smsChecked = smsVariables.superRefine((env, context) => {
  if (env.SMS_GATEWAY !== 'log' && env.SMS_GATEWAY_URL === undefined) {
    const message = `is required when SMS_GATEWAY is ${env.SMS_GATEWAY}`;
    context.addIssue({ code: 'custom', path: ['SMS_GATEWAY_URL'], message });
  }
  if (env.SMS_GATEWAY === 'http' && env.SMS_HTTP_METHOD !== 'GET' && env.SMS_HTTP_BODY === undefined) {
    const message = `is required when SMS_GATEWAY is http and SMS_HTTP_METHOD is ${env.SMS_HTTP_METHOD}`;
    context.addIssue({ code: 'custom', path: ['SMS_HTTP_BODY'], message });
  }
  if (env.SMS_DEV_OUTBOX_FILE !== undefined && env.SMS_GATEWAY !== 'log') {
    const message = 'is read only with SMS_GATEWAY=log (development)';
    context.addIssue({ code: 'custom', path: ['SMS_DEV_OUTBOX_FILE'], message });
  }
});

/** `{"Authorization": "Basic …"}`: the HTTP provider's extra headers, each value a template. */
function parseHeaderTemplates(raw: string): Parsed<Record<string, string>> {
  const error = { error: 'must be a JSON object of header names to string values' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return error;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return error;
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.some(([name, value]) => !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) || typeof value !== 'string')) {
    return error;
  }
  return { value: Object.fromEntries(entries) as Record<string, string> };
}

function parsePattern(raw: string): Parsed<RegExp> {
  try {
    return { value: new RegExp(raw) };
  } catch {
    return { error: 'must be a regular expression' };
  }
}

/** The name of every environment variable the service reads. */
export const configVariables: readonly string[] = [
  ...Object.keys(service.shape),
  ...Object.keys(dispatcherVariables.shape),
  ...Object.keys(jobsAndLimits.shape),
  ...Object.keys(metricsVariables.shape),
  ...Object.keys(smsVariables.shape),
];

/**
 * The environment (variable name to raw string) to AppConfig. Surrounding blanks are trimmed, and an
 * empty or blank value counts as unset: the variable takes its default.
 */
export const configSchema = z
  .preprocess(
    (env: Env) => Object.fromEntries(configVariables.map((variable) => [variable, env[variable]?.trim() || undefined])),
    service
      .and(dispatcher)
      .and(jobsAndLimits)
      .and(metricsVariables)
      .and(smsChecked)
      .superRefine((env, context) => {
        // Codes in clear in a file: a developer's machine only.
        if (env.NODE_ENV === 'production' && env.SMS_DEV_OUTBOX_FILE !== undefined) {
          const message = 'must not be set when NODE_ENV=production: it writes the codes in clear';
          context.addIssue({ code: 'custom', path: ['SMS_DEV_OUTBOX_FILE'], message });
        }
      }),
  )
  .transform((env) => {
    return {
      port: env.PORT,
      host: env.HOST,
      database: env.DATABASE_URL,
      migrationsRun: env.MIGRATIONS_RUN,
      bootstrapToken: env.BOOTSTRAP_TOKEN ?? null,
      /** The email of the administrator a first start on the embedded database creates. */
      adminEmail: env.ADMIN_EMAIL,
      logLevel: env.LOG_LEVEL,
      /** How log lines are written; null: pretty on a terminal, JSON otherwise. */
      logFormat: env.LOG_FORMAT ?? null,
      /** How long a verified token is trusted without asking the database again. */
      tokenCacheTtlMs: env.TOKEN_CACHE_TTL_SECONDS * 1000,
      unauthJobs: {
        /** Whether this process runs the job worker (the app does by default; `npm run worker` always). */
        workerEnabled: env.WORKER_ENABLED,
        /** Each delivers every job (and is tracked separately on it), in this order. */
        dispatchers: env.dispatchers,
        maxAttempts: env.UNAUTH_MAX_ATTEMPTS,
        pollIntervalMs: env.UNAUTH_POLL_INTERVAL_MS,
        batchSize: env.UNAUTH_BATCH_SIZE,
        /** How long a claimed job stays reserved for its worker; after that another may claim it. */
        leaseMs: env.UNAUTH_LEASE_SECONDS * 1000,
        /** First retry delay; each later one doubles, with jitter. */
        retryBaseMs: env.UNAUTH_RETRY_BASE_MS,
      },
      /** How often users whose expiresAt has passed are expired; 0 turns the sweep off. */
      expirySweepIntervalMs: env.EXPIRY_SWEEP_INTERVAL * 1000,
      /** How often the sessions' counters are folded into users' usage and plans' limits enforced; 0 turns it off. */
      usageSweepIntervalMs: env.USAGE_SWEEP_INTERVAL * 1000,
      /** Guest portal forms sent per minute per client IP and per device MAC; 0 turns the limit off. */
      portalFormsPerMinute: env.PORTAL_FORMS_PER_MINUTE,
      /** How often the venue counters' pending changes are folded into them; 0 turns the fold off (CLI). */
      countFoldIntervalMs: COUNT_FOLD_INTERVAL_MS,
      /** The longest a graceful shutdown may take before the process exits anyway. */
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
      rateLimit: {
        /** Requests per minute per token; 0 turns the per-token limit off. */
        perMinute: env.RATE_LIMIT_PER_MINUTE,
        /** Requests per minute per client IP without a valid token (guessing tokens is slow); 0 turns it off. */
        unauthenticatedPerMinute: env.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE,
        /** Counters live here when set, so instances share them; otherwise in process memory. */
        redisUrl: env.REDIS_URL ?? null,
        /** After Redis fails to answer, how long counting stays in memory before Redis is tried again. */
        redisCoolDownMs: env.RATE_LIMIT_REDIS_COOLDOWN_SECONDS * 1000,
      },
      /** Express `trust proxy`: how many reverse proxies stand in front (0: use the peer address). */
      trustProxyHops: env.TRUST_PROXY,
      /** Origins allowed by CORS; empty: CORS stays off. */
      corsOrigins: env.CORS_ORIGINS,
      /** A database call that takes longer fails the request with 503 instead of hanging it. */
      databaseTimeoutMs: env.DB_TIMEOUT_MS,
      /** MySQL connections this process keeps at most (opened as needed); SQLite has one file. */
      databasePoolSize: env.DB_POOL_SIZE,
      /** Limits of the HTTP server, so slow or idle clients cannot hold its sockets (slowloris). */
      http: {
        /** Time a client has to send the request's header block. */
        headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
        /** Time a client has to send the whole request, body included. */
        requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
        /** How long an idle keep-alive connection stays open after an answer. */
        keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
        /** Connections open at once; further ones are closed as soon as they are accepted. */
        maxConnections: env.HTTP_MAX_CONNECTIONS,
      },
      /** AES-256-GCM key for secrets stored in the database (NAS shared secrets); null: stored in clear. */
      secretsKey: env.SECRETS_KEY ?? null,
      /**
       * The file holding the key when SECRETS_KEY is not set: SECRETS_KEY_FILE, else `secrets.key` beside
       * an SQLite file outside production; null: none. Read (or created) by the process entry points.
       */
      secretsKeyFile: secretsKeyFilePath({
        secretsKey: env.SECRETS_KEY,
        secretsKeyFile: env.SECRETS_KEY_FILE,
        database: env.DATABASE_URL,
      }),
      /** The FreeRADIUS back end (/radius/*). */
      radius: {
        /** Session-Timeout of an accepted login without expiresAt, and its cap with one. */
        maxSessionSeconds: env.RADIUS_MAX_SESSION_SECONDS,
        /** Acct-Interim-Interval sent to the NAS. */
        interimSeconds: env.RADIUS_INTERIM_SECONDS,
        /** Simultaneous sessions (with a recent accounting update) a user may have; 0: no limit. */
        maxSessionsPerUser: env.RADIUS_MAX_SESSIONS_PER_USER,
        /** A session without accounting for this long is over (NAS rebooted, link lost). */
        staleAfterMs: (env.RADIUS_STALE_AFTER_SECONDS ?? 3 * env.RADIUS_INTERIM_SECONDS) * 1000,
        /** How often stale sessions are ended and old login attempts deleted; 0 turns the sweep off. */
        staleSweepIntervalMs: env.RADIUS_STALE_SWEEP_INTERVAL * 1000,
        /** How long login attempts are kept. */
        loginAttemptsRetentionMs: env.RADIUS_LOGIN_ATTEMPTS_DAYS * 86_400_000,
        /** How long a verified correct password spares a repeated login argon2id; 0: never. */
        passwordCacheMs: env.RADIUS_PASSWORD_CACHE_SECONDS * 1000,
      },
      audit: {
        /** How long audit events are kept. */
        retentionDays: env.AUDIT_RETENTION_DAYS,
        /** How often events past the retention are deleted (API instances); 0 turns the sweep off. */
        pruneIntervalMs: AUDIT_PRUNE_INTERVAL_MS,
      },
      /** A v1 create or PUT naming a venue id without a `venues` entry answers 400. */
      venuesRegisteredOnly: env.VENUES_REGISTERED_ONLY,
      /** Prometheus metrics on a listener of their own (src/metrics); port null: off. */
      metrics: {
        /** null: no listener, no metrics collected; 0 (tests only): any free port. */
        port: env.METRICS_PORT ?? null,
        host: env.METRICS_HOST,
        /** Active sessions are labelled by venue while there are at most this many venues, else one total. */
        maxVenueLabels: env.METRICS_MAX_VENUE_LABELS,
        /** Values read from the database are read at most this often per process (on a scrape). */
        databaseReadMs: env.METRICS_DATABASE_READ_SECONDS * 1000,
      },
      /** SMS delivery (src/sms): the gateway, its retries, the delivery reports' address. */
      sms: {
        gateway: env.SMS_GATEWAY,
        /** kannel: the sendsms URL with username and password; http: the provider's URL template. */
        url: env.SMS_GATEWAY_URL ?? null,
        sender: env.SMS_SENDER ?? null,
        http: {
          method: env.SMS_HTTP_METHOD,
          contentType: env.SMS_HTTP_CONTENT_TYPE,
          headers: env.SMS_HTTP_HEADERS,
          body: env.SMS_HTTP_BODY ?? null,
          /** An answer counts as accepted when it is 2xx and, if set, its body matches this. */
          acceptPattern: env.SMS_HTTP_ACCEPT_PATTERN ?? null,
        },
        timeoutMs: env.SMS_TIMEOUT_MS,
        maxAttempts: env.SMS_MAX_ATTEMPTS,
        retryBaseMs: env.SMS_RETRY_BASE_MS,
        pollIntervalMs: env.SMS_POLL_INTERVAL_MS,
        /** Where the gateway calls back with delivery reports; null: none asked for. */
        reportBaseUrl: env.SMS_REPORT_BASE_URL ?? null,
        /** log gateway only, never in production: each message, code included, appended to this file. */
        devOutboxFile: env.SMS_DEV_OUTBOX_FILE ?? null,
      },
      /** One-time phone codes (src/phone-verification): send limits per fixed window, the resend pause. */
      phoneCodes: {
        limits: {
          phone: { sends: env.PHONE_CODE_PHONE_LIMIT, windowMs: env.PHONE_CODE_PHONE_WINDOW_MINUTES * 60_000 },
          device: { sends: env.PHONE_CODE_DEVICE_LIMIT, windowMs: env.PHONE_CODE_DEVICE_WINDOW_MINUTES * 60_000 },
          venue: { sends: env.PHONE_CODE_VENUE_LIMIT, windowMs: env.PHONE_CODE_VENUE_WINDOW_MINUTES * 60_000 },
          prefix: { sends: env.PHONE_CODE_PREFIX_LIMIT, windowMs: env.PHONE_CODE_PREFIX_WINDOW_MINUTES * 60_000 },
        },
        resendMs: env.PHONE_CODE_RESEND_SECONDS * 1000,
        /** Country calling codes a code may be sent to; empty: any. */
        countryCodes: env.PHONE_CODE_COUNTRY_CODES,
        /** Prepended to a national number (one leading 0, no +); null: numbers must be international. */
        defaultCountryCode: env.PHONE_DEFAULT_COUNTRY_CODE ?? null,
      },
      /** argon2id threads of each work class; unset ones take defaultArgon2Slots. */
      argon2Slots: {
        ...defaultArgon2Slots(availableParallelism()),
        ...(env.ARGON2_RADIUS_SLOTS === undefined ? {} : { radius: env.ARGON2_RADIUS_SLOTS }),
        ...(env.ARGON2_SIGN_IN_SLOTS === undefined ? {} : { 'sign-in': env.ARGON2_SIGN_IN_SLOTS }),
        ...(env.ARGON2_HASHING_SLOTS === undefined ? {} : { hashing: env.ARGON2_HASHING_SLOTS }),
      } satisfies Argon2Slots,
      /** Queueing delays (ms) above which each tier starts being shed (common/load); 0: never. */
      shedding: { browse: env.SHED_PAGES_DELAY_MS, change: env.SHED_WRITES_DELAY_MS },
      /** The operator console under /admin. */
      console: {
        /** Admin operators must enrol a TOTP second factor before anything else. */
        adminRequire2fa: env.ADMIN_REQUIRE_2FA,
        /** Every operator must enrol a TOTP second factor before anything else (false: labs and tests). */
        operatorsRequire2fa: env.OPERATORS_REQUIRE_2FA,
        /** How long an operator's one-time password (made by create or reset) can be used to sign in. */
        oneTimePasswordLifetimeMs: env.OPERATOR_ONE_TIME_PASSWORD_HOURS * 3_600_000,
        /** A console session unused for this long is over. */
        idleTimeoutMs: env.CONSOLE_IDLE_TIMEOUT_MINUTES * 60_000,
        /** A console session is over this long after sign-in, however busy. */
        absoluteTimeoutMs: env.CONSOLE_SESSION_MAX_HOURS * 3_600_000,
        /** Where browsers reach the console (scheme, host, port): passkeys are bound to it; null: no passkeys. */
        origin: env.CONSOLE_ORIGIN ?? null,
      },
    };
  });

export type AppConfig = z.output<typeof configSchema>;
export type UnauthJobsConfig = AppConfig['unauthJobs'];
export type HttpServerConfig = AppConfig['http'];
export type AuditConfig = AppConfig['audit'];
export type RadiusConfig = AppConfig['radius'];
export type ConsoleConfig = AppConfig['console'];
export type SmsConfig = AppConfig['sms'];
export type PhoneCodesConfig = AppConfig['phoneCodes'];

/**
 * Reads and validates the service's configuration from environment variables. Every bad variable is
 * reported (its first problem), so that one start-up names them all at once.
 */
export function loadConfig(env: Env): AppConfig {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = new Map<string, string>();
  for (const { path, message } of result.error.issues) {
    if (!problems.has(String(path[0]))) problems.set(String(path[0]), message);
  }
  throw new ConfigValidationError([...problems].map(([variable, message]) => ({ variable, message })));
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
    if (!url.hostname) return { error: 'mysql URL needs a host' };
    // The driver decodes them; a malformed escape (`%ZZ`) would stop it with a bare URIError.
    if (decodeOrNull(url.username) === null || decodeOrNull(url.password) === null) {
      return { error: 'mysql URL has a malformed %-escape in its user or password (write % as %25)' };
    }
    const database = decodeOrNull(url.pathname.replace(/^\//, ''));
    if (database === null || !/^[A-Za-z0-9_$-]{1,64}$/.test(database)) {
      return { error: 'mysql URL needs a database name, e.g. mysql://user:pass@host:3306/hotspot' };
    }
    const type = url.protocol === 'mariadb:' ? 'mariadb' : 'mysql';
    url.protocol = 'mysql:';
    return { value: { type, url: url.toString(), database } };
  }
  return { error: 'must start with sqlite:, mysql:// or mariadb://' };
}

/** A malformed escape such as `%E0` is a bad value, not a crash. */
function decodeOrNull(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
