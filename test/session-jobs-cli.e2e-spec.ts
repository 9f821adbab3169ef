import { api } from './support/api-client.js';
import { contextRuntime, runCli } from './support/cli-io.js';
import { givenUser } from './support/factories.js';
import { describeEachDatabase } from './support/test-app.js';

describeEachDatabase('session and jobs CLI (in-process main(), the app services)', (current) => {
  const session = (...argv: string[]) => runCli(contextRuntime(current().app), 'session', ...argv);
  const jobs = (...argv: string[]) => runCli(contextRuntime(current().app), 'jobs', ...argv);
  const users = () => api(current()).users;

  it.each([
    [[]],
    [['start', '--user', 'u']],
    [['start', '--user', 'u', '--venue', 'v', '--mac', 'm', 'extra']],
    [['start', '--user', 'u', '--venue', 'v', '--mac', '02:00:00:00:00:01', '--ip', '10.0.0.300']],
    [['stop']],
    [['nope']],
  ])('session refuses %j as bad usage (exit 2, nothing on stdout)', async (argv) => {
    const result = await session(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.length).toBeGreaterThan(0);
  });

  it.each([[[]], [['list', '--status', 'lost']], [['list', '--user', 'a', '--user', 'b']], [['purge']]])(
    'jobs refuses %j as bad usage (exit 2, nothing on stdout)',
    async (argv) => {
      const result = await jobs(...argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
    },
  );

  it('start prints the session, the user shows the device, stop ends it', async () => {
    const user = await givenUser(current(), { venueIds: ['venue-a'] });
    const started = await session(
      'start',
      '--user',
      user._id,
      '--venue',
      'venue-a',
      '--mac',
      'aabb.ccdd.ee01',
      '--ip',
      '10.0.0.7',
      '--nas',
      'nas-1',
    );
    expect(started.code).toBe(0);
    const printed = JSON.parse(started.stdout);
    expect(printed).toMatchObject({
      userId: user._id,
      venueId: 'venue-a',
      macAddress: 'AA:BB:CC:DD:EE:01',
      ipAddress: '10.0.0.7',
      nasId: 'nas-1',
      status: 'active',
      endedAt: null,
    });

    const fetched = await users().get(user._id).expect(200);
    expect(fetched.body.data.devices).toEqual([
      {
        macAddress: 'AA:BB:CC:DD:EE:01',
        name: null,
        status: 'active',
        firstSeenAt: printed.startedAt,
        lastSeenAt: printed.startedAt,
      },
    ]);

    const stopped = await session('stop', printed.id);
    expect(stopped.code).toBe(0);
    expect(JSON.parse(stopped.stdout)).toMatchObject({
      id: printed.id,
      status: 'stopped',
      endedAt: expect.any(String),
    });
  });

  it('refuses a session for an unknown or blocked user with exit 1 and nothing on stdout', async () => {
    const unknown = await session('start', '--user', 'nobody', '--venue', 'venue-a', '--mac', '02:00:00:00:00:01');
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'no such user nobody\n' });

    const user = await givenUser(current());
    await users().update(user._id, { status: 'blocked' }).expect(200);
    const blocked = await session('start', '--user', user._id, '--venue', 'venue-a', '--mac', '02:00:00:00:00:01');
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toBe('');
  });

  it('lists the jobs of a user, filtered by status, as JSON', async () => {
    const user = await givenUser(current());
    const started = JSON.parse(
      (await session('start', '--user', user._id, '--venue', 'venue-a', '--mac', '02:00:00:00:00:09')).stdout,
    );
    await users().expire(user._id).expect(200);

    const listed = await jobs('list', '--user', user._id, '--status', 'pending', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        userId: user._id,
        reason: 'expired',
        status: 'pending',
        attempts: 0,
        sessions: [
          {
            id: started.id,
            venueId: 'venue-a',
            macAddress: '02:00:00:00:00:09',
            ipAddress: null,
            nasId: null,
            nasClientId: null,
            acctSessionId: null,
            userName: null,
            callingStationId: null,
            nasIpAddress: null,
            nasSourceIp: null,
          },
        ],
      }),
    ]);
    expect(JSON.parse((await jobs('list', '--user', user._id, '--status', 'done', '--json')).stdout)).toEqual([]);

    const plain = await jobs('list', '--user', user._id);
    expect(plain.stdout.trim().split('\n')).toHaveLength(1);
    expect(plain.stdout).toContain('expired');
  });
});
