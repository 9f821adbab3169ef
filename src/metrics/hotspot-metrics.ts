import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const ROUND_TRIP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Every metric of this process, in a registry of its own (not prom-client's global one, so that
 * several applications in one process, as in the tests, never share or clash). Names follow the
 * Prometheus conventions: `hotspot_` prefix, base units, `_total` for counters. docs/monitoring.md
 * lists them with their meaning.
 */
export class HotspotMetrics {
  readonly registry = new Registry();

  // HTTP (the Express middleware)
  readonly httpDuration = new Histogram({
    name: 'hotspot_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status class, and how long they took',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'hotspot_http_rate_limited_requests_total',
    help: 'Requests the rate limiter refused (429), by route template',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  // RADIUS back end (RadiusObserver)
  readonly authorize = new Counter({
    name: 'hotspot_radius_authorize_total',
    help: 'RADIUS authorize answers by result (accept, reject) and reason',
    labelNames: ['result', 'reason'] as const,
    registers: [this.registry],
  });
  readonly accounting = new Counter({
    name: 'hotspot_radius_accounting_packets_total',
    help: 'RADIUS accounting packets from known NASes by Acct-Status-Type',
    labelNames: ['status_type'] as const,
    registers: [this.registry],
  });
  readonly postAuth = new Counter({
    name: 'hotspot_radius_post_auth_total',
    help: 'RADIUS post-auth records written, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly staleSessions = new Counter({
    name: 'hotspot_radius_stale_sessions_ended_total',
    help: 'Sessions the stale-session sweep ended for lack of accounting',
    registers: [this.registry],
  });
  readonly interimInterval = new Gauge({
    name: 'hotspot_radius_interim_interval_seconds',
    help: 'Acct-Interim-Interval sent to the NASes (RADIUS_INTERIM_SECONDS)',
    registers: [this.registry],
  });

  // Sessions and users (read from the database)
  readonly sessionsActive = new Gauge({
    name: 'hotspot_sessions_active',
    help: 'Active sessions, all venues',
    registers: [this.registry],
  });
  readonly venueSessionsActive = new Gauge({
    name: 'hotspot_venue_sessions_active',
    help: 'Active sessions per venue (only while the venues are at most METRICS_MAX_VENUE_LABELS)',
    labelNames: ['venue'] as const,
    registers: [this.registry],
  });
  readonly users = new Gauge({
    name: 'hotspot_users',
    help: "Users by status, from the venues' counters (a user of two venues counts in both)",
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly nasSessionsActive = new Gauge({
    name: 'hotspot_nas_sessions_active',
    help: 'Active sessions per registered NAS',
    labelNames: ['nas'] as const,
    registers: [this.registry],
  });
  readonly nasLastAccounting = new Gauge({
    name: 'hotspot_nas_last_accounting_timestamp_seconds',
    help: 'When a registered NAS last reported accounting for a session (Unix time)',
    labelNames: ['nas'] as const,
    registers: [this.registry],
  });

  // Unauth jobs
  readonly jobsWritten = new Gauge({
    name: 'hotspot_unauth_jobs_written_total',
    help: 'Unauth jobs ever written, by reason (counted in the database, which keeps every job)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly jobs = new Gauge({
    name: 'hotspot_unauth_jobs',
    help: 'Unauth jobs now, by status (pending, processing, done, not-sent: done without reaching every NAS, failed)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly oldestPending = new Gauge({
    name: 'hotspot_unauth_jobs_oldest_pending_age_seconds',
    help: 'Age of the oldest unauth job not yet done or failed (0: none waiting)',
    registers: [this.registry],
  });
  readonly deliveries = new Counter({
    name: 'hotspot_unauth_deliveries_total',
    help: 'Unauth job delivery attempts by dispatcher and result (ack, nak, timeout, error, skipped)',
    labelNames: ['dispatcher', 'result'] as const,
    registers: [this.registry],
  });
  readonly roundTrip = new Histogram({
    name: 'hotspot_unauth_round_trip_seconds',
    help: 'Time from a Disconnect- or CoA-Request to its answer (retransmissions included)',
    labelNames: ['kind'] as const,
    buckets: ROUND_TRIP_BUCKETS,
    registers: [this.registry],
  });
  readonly workerLastPoll = new Gauge({
    name: 'hotspot_unauth_worker_last_poll_timestamp_seconds',
    help: "When this process's unauth job worker last polled for due jobs (Unix time)",
    registers: [this.registry],
  });

  // SMS (SmsObserver)
  readonly smsAttempts = new Counter({
    name: 'hotspot_sms_messages_total',
    help: 'SMS send attempts by gateway and result (sent, retried, failed)',
    labelNames: ['gateway', 'result'] as const,
    registers: [this.registry],
  });
  readonly smsReports = new Counter({
    name: 'hotspot_sms_delivery_reports_total',
    help: 'SMS delivery reports recorded, by gateway and state (smsc, buffered, delivered, failed)',
    labelNames: ['gateway', 'state'] as const,
    registers: [this.registry],
  });

  // Expiry sweep
  readonly expiryRuns = new Counter({
    name: 'hotspot_expiry_sweep_runs_total',
    help: 'Expiry sweep runs completed',
    registers: [this.registry],
  });
  readonly usersExpired = new Counter({
    name: 'hotspot_expiry_sweep_users_expired_total',
    help: 'Users the expiry sweep expired',
    registers: [this.registry],
  });

  // Database
  readonly databaseUp = new Gauge({
    name: 'hotspot_database_up',
    help: "1 when this process's last metrics read of the database succeeded, else 0",
    registers: [this.registry],
  });
  readonly databaseReadAt = new Gauge({
    name: 'hotspot_metrics_database_read_timestamp_seconds',
    help: 'When the values read from the database were last read (Unix time)',
    registers: [this.registry],
  });
  readonly poolInUse = new Gauge({
    name: 'hotspot_database_pool_connections_in_use',
    help: 'Database connections in use (SQLite: the one shared connection)',
    registers: [this.registry],
  });
  readonly poolWaiting = new Gauge({
    name: 'hotspot_database_pool_waiting',
    help: 'Units of work waiting for a database connection',
    registers: [this.registry],
  });

  // Work classes and admission (common/load, common/passwords), read on each scrape
  readonly workSlots = new Gauge({
    name: 'hotspot_work_slots',
    help: 'argon2id threads each work class owns (radius, sign-in, hashing)',
    labelNames: ['class'] as const,
    registers: [this.registry],
  });
  readonly workRunning = new Gauge({
    name: 'hotspot_work_running',
    help: 'argon2id tasks running now, by work class',
    labelNames: ['class'] as const,
    registers: [this.registry],
  });
  readonly workWaiting = new Gauge({
    name: 'hotspot_work_waiting',
    help: 'argon2id tasks waiting for a slot now, by work class',
    labelNames: ['class'] as const,
    registers: [this.registry],
  });
  readonly workStarted = new Counter({
    name: 'hotspot_work_started_total',
    help: 'argon2id tasks started, by work class',
    labelNames: ['class'] as const,
    registers: [this.registry],
  });
  readonly workWaited = new Counter({
    name: 'hotspot_work_wait_seconds_total',
    help: 'Seconds the started argon2id tasks waited for a slot, by work class',
    labelNames: ['class'] as const,
    registers: [this.registry],
  });
  readonly workRejected = new Counter({
    name: 'hotspot_work_rejected_total',
    help: 'argon2id tasks a work class refused: busy (its queue full) or deadline (the caller stopped waiting)',
    labelNames: ['class', 'reason'] as const,
    registers: [this.registry],
  });
  readonly queueingDelay = new Gauge({
    name: 'hotspot_admission_queueing_delay_seconds',
    help: "The queueing delay the admission acts on: the event loop's delay or the wait for a database connection, at its smallest over 250 ms",
    registers: [this.registry],
  });
  readonly admittedShare = new Gauge({
    name: 'hotspot_admission_admitted_ratio',
    help: 'Share of the requests of each sheddable tier (browse: console pages and v1 lists; change: v1 writes) admitted now',
    labelNames: ['tier'] as const,
    registers: [this.registry],
  });
  readonly shed = new Counter({
    name: 'hotspot_admission_shed_total',
    help: 'Requests answered 503 because their tier was being shed, by tier',
    labelNames: ['tier'] as const,
    registers: [this.registry],
  });
  readonly deadlineExpired = new Counter({
    name: 'hotspot_deadline_expired_total',
    help: 'Requests answered 503 without their work because their caller had stopped waiting, by caller (radius, api) and stage',
    labelNames: ['caller', 'stage'] as const,
    registers: [this.registry],
  });

  constructor(role: 'service' | 'worker', interimSeconds: number) {
    collectDefaultMetrics({ register: this.registry });
    this.registry.setDefaultLabels({ role });
    this.interimInterval.set(interimSeconds);
    for (const [dispatcher, result] of [
      ['radius', 'ack'],
      ['radius', 'nak'],
      ['radius', 'timeout'],
    ] as const) {
      // Present from the start, so that ratios over them have series before the first delivery.
      this.deliveries.inc({ dispatcher, result }, 0);
    }
  }
}
