import { LoginAttemptEntity } from '../../radius/entities/login-attempt.entity.js';
import type { LoginAttemptFilter } from '../../radius/login-attempts.repository.js';
import { FakeRuntime, runCli } from '../../testing/cli.js';
import { LOGINS_SERVICE, type LoginsService } from './logins.js';

function attempt(overrides: Partial<LoginAttemptEntity> = {}): LoginAttemptEntity {
  return Object.assign(new LoginAttemptEntity(), {
    id: 'attempt-1',
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    outcome: 'reject',
    nasClientId: 'nas-1',
    venueId: 'venue-a',
    userId: 'user-1',
    username: 'room-1204',
    searchUsername: 'room-1204',
    macAddress: '02:00:00:00:00:09',
    reason: 'invalidCredentials',
    ...overrides,
  });
}

class FakeLogins implements LoginsService {
  filters: LoginAttemptFilter[] = [];
  attempts: LoginAttemptEntity[] = [];
  list(filter: LoginAttemptFilter) {
    this.filters.push(filter);
    return Promise.resolve(this.attempts);
  }
}

describe('hotspot logins', () => {
  let logins: FakeLogins;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'logins', ...argv);

  beforeEach(() => {
    logins = new FakeLogins();
    runtime = new FakeRuntime().provide(LOGINS_SERVICE, logins);
  });

  it('passes every filter to the service (the MAC canonical, the date an instant) and --json prints a JSON array', async () => {
    logins.attempts = [attempt()];
    const result = await run(
      '--venue',
      'venue-a',
      '--mac',
      '02-00-00-00-00-09',
      '--since',
      '2030-01-01T01:00:00+01:00',
      '--limit',
      '5',
      '--json',
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(logins.filters).toEqual([
      {
        venueId: 'venue-a',
        userId: undefined,
        username: undefined,
        macAddress: '02:00:00:00:00:09',
        since: new Date('2030-01-01T00:00:00.000Z'),
        limit: 5,
      },
    ]);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        id: 'attempt-1',
        createdAt: '2030-01-01T00:00:00.000Z',
        outcome: 'reject',
        reason: 'invalidCredentials',
        venueId: 'venue-a',
        nasClientId: 'nas-1',
        userId: 'user-1',
        username: 'room-1204',
        macAddress: '02:00:00:00:00:09',
      },
    ]);
  });

  it('without options: the newest 50, as an aligned table with a header', async () => {
    logins.attempts = [
      attempt({ id: 'a-2', outcome: 'accept', reason: null }),
      attempt({ userId: null, username: 'no\u0007body', macAddress: null, reason: 'invalidCredentials' }),
    ];
    const result = await run();
    expect(result.code).toBe(0);
    expect(logins.filters).toEqual([
      {
        venueId: undefined,
        userId: undefined,
        username: undefined,
        macAddress: undefined,
        since: undefined,
        limit: 50,
      },
    ]);
    expect(result.stdout.split('\n')).toEqual([
      'TIME                      OUTCOME  REASON              VENUE    NAS    USER    MAC                USERNAME',
      '2030-01-01T00:00:00.000Z  accept   -                   venue-a  nas-1  user-1  02:00:00:00:00:09  room-1204',
      '2030-01-01T00:00:00.000Z  reject   invalidCredentials  venue-a  nas-1  -       -                  no?body',
      '',
    ]);
  });

  it('--user and --username are passed as given', async () => {
    await run('--user', 'user-1');
    await run('--username', 'Room-1204');
    expect(logins.filters.map((filter) => [filter.userId, filter.username])).toEqual([
      ['user-1', undefined],
      [undefined, 'Room-1204'],
    ]);
  });

  it('no attempts: nothing on stdout, a note on stderr; --json prints []', async () => {
    expect(await run()).toEqual({ code: 0, stdout: '', stderr: 'No login attempts match.\n' });
    expect(await run('--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it.each([
    [['--since', '2030-02-30T00:00:00Z'], "option '--since' must be an ISO 8601 date-time"],
    [['--since', '2030-01-01T00:00:00'], "option '--since' must be an ISO 8601 date-time"],
    [['--mac', 'not-a-mac'], "option '--mac' must be a MAC address"],
    [['--venue', 'bad venue'], "option '--venue' must be a venue id"],
    [['--limit', '0'], "option '--limit' must be an integer from 1 to 1000"],
    [['--limit', '1001'], "option '--limit' must be an integer from 1 to 1000"],
    [['--limit', '2.5'], "option '--limit' must be an integer from 1 to 1000"],
    [['--user', 'u-1', '--username', 'room'], "option '--user <id>' cannot be used with option '--username <name>'"],
    [['--mac', '02:00:00:00:00:09', '--user', 'u-1'], "option '--user <id>' cannot be used with option '--mac <mac>'"],
    [['--json', '--json'], "option '--json' may be given only once"],
  ])('%j: a usage error (exit 2), no service asked', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(runtime.uses).toBe(0);
  });
});
