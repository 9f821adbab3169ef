import { SessionEntity } from '../../sessions/entities/session.entity.js';
import { SessionRequestError, type StartSessionInput } from '../../sessions/sessions.service.js';
import { FakeRuntime, runCli } from '../../testing/cli.js';
import { SESSION_SERVICE, type SessionService } from './session.js';

function sessionEntity(overrides: Partial<SessionEntity> = {}): SessionEntity {
  return Object.assign(new SessionEntity(), {
    id: '0190d5a0-0000-7000-8000-00000000000a',
    userId: 'user-1',
    venueId: 'venue-a',
    macAddress: 'AA:BB:CC:DD:EE:01',
    ipAddress: null,
    nasId: null,
    status: 'active',
    startedAt: new Date('2030-01-01T00:00:00.000Z'),
    endedAt: null,
    ...overrides,
  });
}

class FakeSessions implements SessionService {
  started: StartSessionInput[] = [];
  stopped: string[] = [];
  refusal: SessionRequestError | null = null;

  start(input: StartSessionInput) {
    this.started.push(input);
    if (this.refusal) return Promise.reject(this.refusal);
    return Promise.resolve(
      sessionEntity({ macAddress: input.macAddress, ipAddress: input.ipAddress ?? null, nasId: input.nasId ?? null }),
    );
  }
  stop(sessionId: string) {
    this.stopped.push(sessionId);
    if (this.refusal) return Promise.reject(this.refusal);
    return Promise.resolve(
      sessionEntity({ id: sessionId, status: 'stopped', endedAt: new Date('2030-01-01T01:00:00.000Z') }),
    );
  }
}

describe('hotspot session', () => {
  let sessions: FakeSessions;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'session', ...argv);

  beforeEach(() => {
    sessions = new FakeSessions();
    runtime = new FakeRuntime().provide(SESSION_SERVICE, sessions);
  });

  it('start hands the normalised MAC to the service and prints the session as one JSON object', async () => {
    const result = await run(
      'start',
      '--user',
      'user-1',
      '--venue',
      'venue-a',
      '--mac',
      'aabb.ccdd.ee01',
      '--ip',
      '10.0.0.7',
      '--nas',
      'nas-1',
    );
    expect(result.code).toBe(0);
    expect(sessions.started).toEqual([
      { userId: 'user-1', venueId: 'venue-a', macAddress: 'AA:BB:CC:DD:EE:01', ipAddress: '10.0.0.7', nasId: 'nas-1' },
    ]);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual({
      id: '0190d5a0-0000-7000-8000-00000000000a',
      userId: 'user-1',
      venueId: 'venue-a',
      macAddress: 'AA:BB:CC:DD:EE:01',
      ipAddress: '10.0.0.7',
      nasId: 'nas-1',
      status: 'active',
      startedAt: '2030-01-01T00:00:00.000Z',
      endedAt: null,
    });
  });

  it('start without --ip and --nas records neither; --json prints the same JSON', async () => {
    const plain = await run('start', '--user', 'u', '--venue', 'v', '--mac', '02:00:00:00:00:01');
    const json = await run('start', '--user', 'u', '--venue', 'v', '--mac', '02:00:00:00:00:01', '--json');
    expect(sessions.started.map((input) => [input.ipAddress, input.nasId])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(json).toEqual(plain);
  });

  it('stop prints the ended session', async () => {
    const result = await run('stop', 'session-9', '--json');
    expect(result.code).toBe(0);
    expect(sessions.stopped).toEqual(['session-9']);
    expect(JSON.parse(result.stdout)).toMatchObject({
      id: 'session-9',
      status: 'stopped',
      endedAt: '2030-01-01T01:00:00.000Z',
    });
  });

  it('a refused request exits 1 with the reason on stderr and nothing on stdout', async () => {
    sessions.refusal = new SessionRequestError('no such user nobody');
    expect(await run('start', '--user', 'nobody', '--venue', 'v', '--mac', '02:00:00:00:00:01')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'no such user nobody\n',
    });
    sessions.refusal = new SessionRequestError('no session s-1');
    expect(await run('stop', 's-1')).toEqual({ code: 1, stdout: '', stderr: 'no session s-1\n' });
  });

  it.each([
    [[], /Usage: hotspot session/],
    [['start', '--user', 'u'], /required option '--venue <id>'/],
    [['start', '--user', 'u', '--venue', 'v'], /required option '--mac <mac>'/],
    [['start', '--user', 'u', '--venue', 'v', '--mac', 'aa:bb:cc:dd:ee'], /'--mac' must be a MAC address/],
    [['start', '--user', 'u', '--venue', 'v w', '--mac', '02:00:00:00:00:01'], /'--venue' must be a venue id/],
    [
      ['start', '--user', 'u', '--venue', 'v', '--mac', '02:00:00:00:00:01', '--ip', '10.0.0.256'],
      /'--ip' must be an IPv4 or IPv6/,
    ],
    [
      ['start', '--user', 'u', '--venue', 'v', '--mac', '02:00:00:00:00:01', '--nas', 'n'.repeat(129)],
      /'--nas' must be 1-128/,
    ],
    [['start', '--user', 'u'.repeat(37), '--venue', 'v', '--mac', '02:00:00:00:00:01'], /'--user' must be 1-36/],
    [['start', '--user', 'u', '--venue', 'v', '--mac', '02:00:00:00:00:01', 'extra'], /too many arguments/],
    [['stop'], /missing required argument 'sessionId'/],
    [
      ['stop', 'a\u001b[2Jb\nFAKE LINE'],
      /^error: the argument of stop must not contain control characters\n\(add --help for usage\)\n$/,
    ],
    [['stop', ''], /the argument of stop must be 1-36 characters/],
    [['stop', 's-1', '--json', '--json'], /option '--json' may be given only once/],
    [['stop', 's'.repeat(37)], /the argument of stop must be 1-36 characters/],
    [['nope'], /unknown command 'nope'/],
  ])('refuses %j with exit code 2 and no service call', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(runtime.uses).toBe(0);
  });
});
