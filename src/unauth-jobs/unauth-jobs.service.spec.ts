import { SessionsRepository } from '../sessions/sessions.repository.js';
import type { DatabaseService } from '../database/database.service.js';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { UnauthJobEntity, type UnauthReason } from './entities/unauth-job.entity.js';
import type { ClaimedJob } from './unauth-job-rules.js';
import { UnauthJobsRepository } from './unauth-jobs.repository.js';
import { UnauthJobsService } from './unauth-jobs.service.js';

const LEASE_MS = 60_000;
const RETRY = { maxAttempts: 3, retryBaseMs: 1000 };

describe('UnauthJobsService (claims, leases and outcomes on a real SQLite database)', () => {
  let database: DatabaseService;
  let close: () => Promise<void>;
  let clock: ManualClock;
  let jobs: UnauthJobsService;
  let sequence = 0;

  beforeEach(async () => {
    ({ database, close } = await openInMemoryDatabase());
    clock = new ManualClock();
    jobs = new UnauthJobsService(database, new UnauthJobsRepository(database), new SessionsRepository());
  });

  afterEach(() => close());

  /** Writes a pending job the way the use cases do: through a transaction, due at `at`. */
  async function enqueue(at: Date = clock.now(), reason: UnauthReason = 'blocked'): Promise<UnauthJobEntity> {
    sequence += 1;
    const session = {
      id: `session-${sequence}`,
      venueId: 'venue-a',
      macAddress: 'AA:BB:CC:DD:EE:01',
      ipAddress: '10.0.0.1',
      nasId: 'nas-1',
      nasClientId: 'nas-client-1',
      acctSessionId: '8120000A',
      callingStationId: 'AA-BB-CC-DD-EE-01',
      nasIpAddress: '192.0.2.10',
      nasSourceIp: '192.0.2.10',
    } as SessionEntity;
    return database.transaction((em) =>
      jobs.enqueue(em, { userId: `user-${sequence}`, username: `guest${sequence}`, reason, sessions: [session] }, at),
    );
  }

  const row = (id: string) => database.run((em) => em.findOneByOrFail(UnauthJobEntity, { id }));
  const claim = (limit = 10) => jobs.claimDue(clock.now(), limit, LEASE_MS);
  const ids = (list: Array<{ id: string }>) => list.map((job) => job.id);
  /** The worker's record of an attempt whose one delivery succeeded. */
  const doneAttempt = (job: ClaimedJob) => jobs.recordAttempt(job, {}, 'done', clock.now(), RETRY);
  /** The worker's record of an attempt whose one delivery failed with `error`: retried, or failed at the last. */
  const failedAttempt = (job: ClaimedJob, error: string, retry = RETRY) =>
    jobs.recordAttempt(
      job,
      { webhook: { status: 'pending', attempts: job.attempts, lastError: error, at: clock.now().toISOString() } },
      'retry',
      clock.now(),
      retry,
    );

  it('enqueue writes a pending job, due at once, with a copy of the sessions', async () => {
    const job = await enqueue();
    expect(await row(job.id)).toEqual({
      id: job.id,
      userId: job.userId,
      username: job.username,
      reason: 'blocked',
      sessions: [
        {
          id: job.sessions[0].id,
          venueId: 'venue-a',
          macAddress: 'AA:BB:CC:DD:EE:01',
          ipAddress: '10.0.0.1',
          nasId: 'nas-1',
          nasClientId: 'nas-client-1',
          acctSessionId: '8120000A',
          callingStationId: 'AA-BB-CC-DD-EE-01',
          nasIpAddress: '192.0.2.10',
          nasSourceIp: '192.0.2.10',
        },
      ],
      status: 'pending',
      notSentReason: null,
      deliveries: null,
      expiresAt: null,
      attempts: 0,
      nextAttemptAt: clock.now(),
      leaseExpiresAt: null,
      lastError: null,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });
  });

  it('claims due jobs, earliest first, and leaves the ones not yet due', async () => {
    const start = clock.now().getTime();
    const later = await enqueue(new Date(start - 1000));
    const earliest = await enqueue(new Date(start - 5000));
    const notYet = await enqueue(new Date(start + 1000));
    const middle = await enqueue(new Date(start - 3000));

    const claimed = await claim();
    expect(ids(claimed)).toEqual([earliest.id, middle.id, later.id]);
    expect((await row(notYet.id)).status).toBe('pending');

    clock.advance(1000);
    expect(ids(await claim())).toEqual([notYet.id]);
  });

  it('breaks ties in due time by id (creation order)', async () => {
    const at = clock.now();
    const created = [await enqueue(at), await enqueue(at), await enqueue(at)];
    expect(ids(await claim())).toEqual(ids(created).sort());
  });

  it('claims at most `limit` jobs; the next call takes the rest', async () => {
    const created: UnauthJobEntity[] = [];
    for (let i = 0; i < 5; i++) created.push(await enqueue(new Date(clock.now().getTime() - 10_000 + i)));
    expect(ids(await claim(2))).toEqual(ids(created.slice(0, 2)));
    expect(ids(await claim(2))).toEqual(ids(created.slice(2, 4)));
    expect(ids(await claim(2))).toEqual(ids(created.slice(4)));
    expect(await claim(2)).toEqual([]);
  });

  it('a claim makes the job processing under a lease, counts the attempt and stores it all', async () => {
    const job = await enqueue();
    const [claimed] = await claim();
    const leaseEnd = new Date(clock.now().getTime() + LEASE_MS);
    expect(claimed).toMatchObject({
      id: job.id,
      status: 'processing',
      attempts: 1,
      leaseExpiresAt: leaseEnd,
      nextAttemptAt: leaseEnd,
    });
    expect(await row(job.id)).toMatchObject({
      status: 'processing',
      attempts: 1,
      leaseExpiresAt: leaseEnd,
      nextAttemptAt: leaseEnd,
      updatedAt: clock.now(),
      createdAt: job.createdAt,
    });
  });

  it('does not claim a job another worker holds under a live lease, but reclaims it once the lease ran out', async () => {
    const job = await enqueue();
    await claim();
    clock.advance(LEASE_MS - 1);
    expect(await claim()).toEqual([]);

    clock.advance(1);
    const [reclaimed] = await claim();
    expect(reclaimed).toMatchObject({ id: job.id, status: 'processing', attempts: 2 });
    expect(reclaimed.leaseExpiresAt).toEqual(new Date(clock.now().getTime() + LEASE_MS));
  });

  it('never claims done or failed jobs, however old', async () => {
    const done = await enqueue();
    const failed = await enqueue();
    const claimed = await claim();
    await doneAttempt(claimed.find((job) => job.id === done.id)!);
    await failedAttempt(
      claimed.find((job) => job.id === failed.id)!,
      'no',
      { ...RETRY, maxAttempts: 1 },
    );
    clock.advance(365 * 24 * 3600 * 1000);
    expect(await claim()).toEqual([]);
    expect((await row(done.id)).status).toBe('done');
    expect((await row(failed.id)).status).toBe('failed');
  });

  it('a done attempt finishes the job and clears its lease and last error', async () => {
    const job = await enqueue();
    const [first] = await claim();
    await failedAttempt(first, 'webhook answered HTTP 500');
    clock.advance(10_000);
    const [second] = await claim();
    clock.advance(250);
    await doneAttempt(second);
    expect(await row(job.id)).toMatchObject({
      status: 'done',
      attempts: 2,
      leaseExpiresAt: null,
      lastError: null,
      updatedAt: clock.now(),
    });
  });

  it('a done job records why it left sessions unsent: nothing but the log took it; nothing when RADIUS sent them', async () => {
    const logged = await enqueue();
    const sent = await enqueue();
    const claimed = await claim();
    const at = clock.now().toISOString();
    const log = { status: 'done' as const, attempts: 1, lastError: null, at };
    await jobs.recordAttempt(
      claimed.find((job) => job.id === logged.id)!,
      { log },
      'done',
      clock.now(),
      RETRY,
    );
    const acked = { result: 'acked' as const, errorCause: null, detail: null, nas: 'nas-1', attempts: 1, at };
    const radius = { ...log, sessions: { [sent.sessions[0].id]: acked } };
    await jobs.recordAttempt(
      claimed.find((job) => job.id === sent.id)!,
      { log, radius },
      'done',
      clock.now(),
      RETRY,
    );
    expect(await row(logged.id)).toMatchObject({ status: 'done', notSentReason: 'no-radius-dispatcher' });
    expect(await row(sent.id)).toMatchObject({ status: 'done', notSentReason: null });
  });

  it('a failed attempt schedules a retry with growing backoff, then gives up after the last attempt', async () => {
    const job = await enqueue();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= RETRY.maxAttempts; attempt++) {
      const [claimed] = await claim();
      expect(claimed).toMatchObject({ id: job.id, attempts: attempt });
      await failedAttempt(claimed, `webhook answered HTTP 50${attempt}`);
      const stored = await row(job.id);
      if (attempt < RETRY.maxAttempts) {
        expect(stored).toMatchObject({
          status: 'pending',
          attempts: attempt,
          leaseExpiresAt: null,
          lastError: `webhook answered HTTP 50${attempt}`,
        });
        const delay = stored.nextAttemptAt.getTime() - clock.now().getTime();
        const full = RETRY.retryBaseMs * 2 ** (attempt - 1);
        expect(delay).toBeGreaterThanOrEqual(full / 2);
        expect(delay).toBeLessThanOrEqual(full);
        delays.push(delay);
        // Not due a millisecond early.
        clock.advance(delay - 1);
        expect(await claim()).toEqual([]);
        clock.advance(1);
      } else {
        expect(stored).toMatchObject({
          status: 'failed',
          attempts: 3,
          leaseExpiresAt: null,
          lastError: 'webhook answered HTTP 503',
        });
      }
    }
    expect(delays).toHaveLength(2);
    clock.advance(24 * 3600 * 1000);
    expect(await claim()).toEqual([]);
  });

  it('a failed attempt keeps at most 1000 characters of the error', async () => {
    const job = await enqueue();
    const [claimed] = await claim();
    await failedAttempt(claimed, 'x'.repeat(5000));
    expect((await row(job.id)).lastError).toBe('x'.repeat(1000));
  });

  it('release hands the job back untried: pending, due now, the attempt not counted', async () => {
    const job = await enqueue();
    const [claimed] = await claim();
    clock.advance(500);
    await jobs.release(claimed, clock.now());
    expect(await row(job.id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      leaseExpiresAt: null,
      nextAttemptAt: clock.now(),
    });
    const [again] = await claim();
    expect(again).toMatchObject({ id: job.id, attempts: 1 });
  });

  describe('outcomes recorded under a lease that was lost are ignored', () => {
    /** The first worker's claim, then the lease runs out and a second worker reclaims the job. */
    async function lostLease(): Promise<{ job: UnauthJobEntity; stale: ClaimedJob; current: ClaimedJob }> {
      const job = await enqueue();
      const [stale] = await claim();
      clock.advance(LEASE_MS);
      const [current] = await claim();
      expect(current.id).toBe(job.id);
      return { job, stale, current };
    }

    it('a done attempt from the worker that lost the lease leaves the new holder in charge', async () => {
      const { job, stale, current } = await lostLease();
      await doneAttempt(stale);
      expect(await row(job.id)).toMatchObject({
        status: 'processing',
        attempts: 2,
        leaseExpiresAt: current.leaseExpiresAt,
      });
      await doneAttempt(current);
      expect((await row(job.id)).status).toBe('done');
    });

    it('a failed attempt from the worker that lost the lease', async () => {
      const { job, stale, current } = await lostLease();
      await failedAttempt(stale, 'late failure');
      expect(await row(job.id)).toMatchObject({
        status: 'processing',
        attempts: 2,
        lastError: null,
        leaseExpiresAt: current.leaseExpiresAt,
      });
    });

    it('release', async () => {
      const { job, stale, current } = await lostLease();
      await jobs.release(stale, clock.now());
      expect(await row(job.id)).toMatchObject({
        status: 'processing',
        attempts: 2,
        leaseExpiresAt: current.leaseExpiresAt,
      });
    });

    it('an outcome for a job already finished changes nothing', async () => {
      const job = await enqueue();
      const [claimed] = await claim();
      await doneAttempt(claimed);
      const before = await row(job.id);
      clock.advance(1000);
      await failedAttempt(claimed, 'late');
      await jobs.release(claimed, clock.now());
      expect(await row(job.id)).toEqual(before);
    });
  });

  it('list filters by user and status, oldest first', async () => {
    const a = await enqueue();
    clock.advance(1);
    const b = await enqueue();
    const [claimed] = await claim(1);
    await doneAttempt(claimed);
    expect(ids(await jobs.list())).toEqual([a.id, b.id]);
    expect(ids(await jobs.list({ status: 'done' }))).toEqual([a.id]);
    expect(ids(await jobs.list({ status: 'pending' }))).toEqual([b.id]);
    expect(ids(await jobs.list({ userId: b.userId }))).toEqual([b.id]);
  });
});
