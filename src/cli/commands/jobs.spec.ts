import { UnauthJobEntity } from '../../unauth-jobs/entities/unauth-job.entity.js';
import type { UnauthJobsService } from '../../unauth-jobs/unauth-jobs.service.js';
import { FakeRuntime, runCli } from '../../testing/cli.js';
import { JOBS_SERVICE, type JobsService } from './jobs.js';

type ListFilter = Parameters<UnauthJobsService['list']>[0];

function jobEntity(): UnauthJobEntity {
  return Object.assign(new UnauthJobEntity(), {
    id: 'job-1',
    userId: 'user-1',
    username: 'room-1204',
    reason: 'expired',
    sessions: [{ id: 's-1', venueId: 'venue-a', macAddress: '02:00:00:00:00:09', ipAddress: null, nasId: null }],
    status: 'pending',
    notSentReason: null,
    deliveries: null,
    expiresAt: null,
    attempts: 0,
    nextAttemptAt: new Date('2030-01-01T00:00:01.000Z'),
    leaseExpiresAt: null,
    lastError: null,
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    updatedAt: new Date('2030-01-01T00:00:00.000Z'),
  });
}

class FakeJobs implements JobsService {
  filters: ListFilter[] = [];
  jobs: UnauthJobEntity[] = [];
  list(filter: ListFilter) {
    this.filters.push(filter);
    return Promise.resolve(this.jobs);
  }
  find(id: string) {
    return Promise.resolve(this.jobs.find((job) => job.id === id) ?? null);
  }
}

/** A job whose RADIUS delivery ACKed one session and failed another, and whose webhook is pending. */
function trackedJob(): UnauthJobEntity {
  const job = jobEntity();
  job.sessions = [...job.sessions, { ...job.sessions[0], id: 's-2', nasId: 'nas-b' }];
  job.status = 'failed';
  job.lastError =
    'radius: session s-2: NAS nas-b answered Disconnect-NAK with Error-Cause 404 | webhook: webhook answered HTTP 500';
  job.deliveries = {
    radius: {
      status: 'failed',
      attempts: 1,
      lastError: 'session s-2: NAS nas-b answered Disconnect-NAK with Error-Cause 404',
      at: '2030-01-01T00:00:02.000Z',
      sessions: {
        's-1': {
          result: 'acked',
          errorCause: null,
          detail: null,
          nas: 'nas-a',
          attempts: 1,
          at: '2030-01-01T00:00:02.000Z',
        },
        's-2': {
          result: 'failed',
          errorCause: 404,
          detail: 'NAS nas-b answered Disconnect-NAK with Error-Cause 404',
          nas: 'nas-b',
          attempts: 1,
          at: '2030-01-01T00:00:02.000Z',
        },
      },
    },
    webhook: { status: 'failed', attempts: 1, lastError: 'webhook answered HTTP 500', at: '2030-01-01T00:00:02.000Z' },
  };
  return job;
}

describe('hotspot jobs', () => {
  let jobs: FakeJobs;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'jobs', ...argv);

  beforeEach(() => {
    jobs = new FakeJobs();
    runtime = new FakeRuntime().provide(JOBS_SERVICE, jobs);
  });

  it('list passes the filters to the service and --json prints a JSON array of jobs (no lease)', async () => {
    jobs.jobs = [jobEntity()];
    const result = await run('list', '--user', 'user-1', '--status', 'pending', '--json');
    expect(result.code).toBe(0);
    expect(jobs.filters).toEqual([{ userId: 'user-1', status: 'pending' }]);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        id: 'job-1',
        userId: 'user-1',
        username: 'room-1204',
        reason: 'expired',
        sessions: [{ id: 's-1', venueId: 'venue-a', macAddress: '02:00:00:00:00:09', ipAddress: null, nasId: null }],
        status: 'pending',
        notSent: null,
        deliveries: {},
        deliverySummary: '-',
        expiresAt: null,
        attempts: 0,
        nextAttemptAt: '2030-01-01T00:00:01.000Z',
        lastError: null,
        createdAt: '2030-01-01T00:00:00.000Z',
        updatedAt: '2030-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('list without filters asks for every job and prints one line per job', async () => {
    jobs.jobs = [jobEntity(), jobEntity()];
    const result = await run('list');
    expect(jobs.filters).toEqual([{ userId: undefined, status: undefined }]);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^job-1\s+pending\s+expired\s+user user-1 \(room-1204\)\s+1 session\(s\)\s+attempts 0/);
  });

  it('list shows a summary of the deliveries on each line', async () => {
    jobs.jobs = [trackedJob()];
    const result = await run('list', '--status', 'failed');
    expect(result.stdout).toContain('deliveries: radius failed (acked 1, failed 1), webhook failed');
  });

  it("show prints each dispatcher's delivery and each session's outcome", async () => {
    jobs.jobs = [trackedJob()];
    const result = await run('show', 'job-1');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^job-1\s+failed/);
    // A failed job is tried no more: it shows no next attempt.
    expect(lines[1]).toBe('  no further attempt  updated 2030-01-01T00:00:00.000Z');
    expect(lines).toContain(
      '  radius: failed, 1 attempt(s), at 2030-01-01T00:00:02.000Z - session s-2: NAS nas-b answered Disconnect-NAK with Error-Cause 404',
    );
    expect(lines).toContain('    session s-1: acked, NAS nas-a, 1 attempt(s), at 2030-01-01T00:00:02.000Z');
    expect(lines).toContain(
      '    session s-2: failed Error-Cause 404, NAS nas-b, 1 attempt(s), at 2030-01-01T00:00:02.000Z - NAS nas-b answered Disconnect-NAK with Error-Cause 404',
    );
    expect(lines).toContain('  webhook: failed, 1 attempt(s), at 2030-01-01T00:00:02.000Z - webhook answered HTTP 500');
  });

  it('show --json prints the job with its deliveries', async () => {
    jobs.jobs = [trackedJob()];
    const shown = JSON.parse((await run('show', 'job-1', '--json')).stdout);
    expect(shown.deliveries.radius.sessions['s-2']).toMatchObject({ result: 'failed', errorCause: 404, nas: 'nas-b' });
    expect(shown.deliverySummary).toBe('radius failed (acked 1, failed 1), webhook failed');
    expect(shown.nextAttemptAt).toBeNull();
  });

  it('show says what a done job did not send to a NAS, and why', async () => {
    const job = jobEntity();
    job.status = 'done';
    job.deliveries = { log: { status: 'done', attempts: 1, lastError: null, at: '2030-01-01T00:00:02.000Z' } };
    jobs.jobs = [job];
    const lines = (await run('show', 'job-1')).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^job-1\s+done/);
    expect(lines).toContain('  not sent to a NAS: 1 session(s), no-radius-dispatcher');
    const shown = JSON.parse((await run('show', 'job-1', '--json')).stdout);
    expect(shown.notSent).toEqual({ reason: 'no-radius-dispatcher', sessions: 1 });
  });

  it('show of an unknown id exits 1 saying so', async () => {
    const result = await run('show', 'nope');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No unauth job has the id "nope".');
  });

  it('says on stderr that nothing matched, leaving stdout empty', async () => {
    expect(await run('list')).toEqual({ code: 0, stdout: '', stderr: 'No unauth jobs match.\n' });
    expect(await run('list', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it.each([
    [[], /Usage: hotspot jobs/],
    [['list', '--status', 'lost'], /'--status' must be one of pending, processing, done, failed/],
    [['list', '--user', 'a', '--user', 'b'], /'--user' may be given only once/],
    [['list', 'extra'], /too many arguments/],
    [['purge'], /unknown command 'purge'/],
  ])('refuses %j with exit code 2 and no service call', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(runtime.uses).toBe(0);
  });

  it('--help of list shows the status choices', async () => {
    const result = await run('list', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/choices: "pending",\s+"processing",\s+"done",\s+"failed"/);
  });
});
