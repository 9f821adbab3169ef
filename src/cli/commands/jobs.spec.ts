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
