import { AuditRetentionSweeper } from '../src/audit/audit-retention.sweeper.js';
import { CLI_ACTOR } from '../src/audit/audit.rules.js';
import { AuditService } from '../src/audit/audit.service.js';
import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { ApiTokenService } from '../src/auth/api-token.service.js';
import { dateTimeParameter } from '../src/database/columns.js';
import { HotspotUsersService } from '../src/hotspot-users/hotspot-users.service.js';
import { OperatorEntity } from '../src/operators/entities/operator.entity.js';
import { api } from './support/api-client.js';
import { contextRuntime, runCli } from './support/cli-io.js';
import { givenUser, startSession, uniqueDevice, userBody } from './support/factories.js';
import { ADMIN_TOKEN, describeEachDatabase, type TestApp } from './support/test-app.js';

/** Every secret this suite hands the service: none may appear in any audit row. */
const SECRETS = new Set<string>([ADMIN_TOKEN, 'secret-1']);
const NAS_SECRET = 'Audit-Nas-Secret-0123456789';
SECRETS.add(NAS_SECRET);

/** A user's password, remembered as a secret of the suite. */
function password(label: string): string {
  const value = `Pw-${label}-${Math.random().toString(36).slice(2)}-secret`;
  SECRETS.add(value);
  return value;
}

const LOOPBACK = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

describeEachDatabase('audit trail', (current) => {
  let writer: { value: string; id: string; name: string };
  const cli = (...argv: string[]) => runCli(contextRuntime(current().app), ...argv);

  /** Every audit row, oldest first. */
  const allEvents = () =>
    current()
      .dataSource.getRepository(AuditEventEntity)
      .find({ order: { occurredAt: 'ASC', id: 'ASC' } });

  /** The rows `work` added: it runs, and the rows that were not there before are returned. */
  async function eventsWrittenBy(work: () => Promise<unknown>): Promise<AuditEventEntity[]> {
    const before = new Set((await allEvents()).map((event) => event.id));
    await work();
    return (await allEvents()).filter((event) => !before.has(event.id));
  }

  async function newToken(testApp: TestApp, name: string): Promise<{ value: string; id: string; name: string }> {
    const value = await testApp.createToken({ name, permissions: ['delete'] });
    SECRETS.add(value);
    const stored = await testApp.app.get(ApiTokenService).findByValue(value);
    return { value, id: stored!.id, name };
  }

  const givenAuditedUser = (overrides: Record<string, unknown> = {}) =>
    givenUser(current(), { password: password('user'), venueIds: ['venue-a'], ...overrides });

  beforeAll(async () => {
    writer = await newToken(current(), 'audit-writer');
  });

  const asWriter = () => ({ token: writer.value });
  const tokenActor = () => ({ actorType: 'token' as const, actorId: writer.id, actorName: writer.name });
  const cliActor = { actorType: 'cli' as const, actorId: null, actorName: null };

  // Each case prepares what it changes (rows written then are not the case's), makes one change and
  // names the one audit row that change must write.
  const cases: Array<{
    action: string;
    prepare?: () => Promise<string>;
    change: (prepared: string) => Promise<string>;
    expected: () => Partial<AuditEventEntity>;
  }> = [
    {
      action: 'user.create (v1 API, with the request id and client address)',
      change: async () => {
        const body = userBody({ password: password('create'), venueIds: ['venue-b', 'venue-a'] });
        const answer = await api(current()).users.create(body, asWriter()).set('X-Request-Id', 'audit-create-1');
        expect(answer.status).toBe(201);
        return answer.body.data._id;
      },
      expected: () => ({
        ...tokenActor(),
        action: 'user.create',
        targetType: 'user',
        venueIds: ['venue-a', 'venue-b'],
        changedFields: null,
        requestId: 'audit-create-1',
      }),
    },
    {
      action: 'user.update with the names of the changed fields',
      prepare: async () => (await givenAuditedUser({ name: 'Before' }))._id,
      change: async (id) => {
        await api(current()).users.update(id, { name: 'After', email: 'audit-after@example.com' }, asWriter());
        return id;
      },
      expected: () => ({
        ...tokenActor(),
        action: 'user.update',
        targetType: 'user',
        venueIds: ['venue-a'],
        changedFields: ['email', 'name'],
      }),
    },
    {
      action: 'user.update taking a venue: both venues named',
      prepare: async () => (await givenAuditedUser({ venueIds: ['venue-a'] }))._id,
      change: async (id) => {
        await api(current())
          .users.update(id, { venueIds: ['venue-c'] }, asWriter())
          .expect(200);
        return id;
      },
      expected: () => ({ action: 'user.update', venueIds: ['venue-a', 'venue-c'], changedFields: ['venueIds'] }),
    },
    {
      action: 'user.block (a PUT moving the status; its other changed fields listed)',
      prepare: async () => (await givenAuditedUser())._id,
      change: async (id) => {
        await api(current()).users.update(id, { status: 'blocked', name: 'Blocked' }, asWriter()).expect(200);
        return id;
      },
      expected: () => ({ ...tokenActor(), action: 'user.block', changedFields: ['name', 'status'] }),
    },
    {
      action: 'user.unblock',
      prepare: async () => {
        const user = await givenAuditedUser();
        await api(current()).users.update(user._id, { status: 'blocked' }).expect(200);
        return user._id;
      },
      change: async (id) => {
        await api(current()).users.update(id, { status: 'active' }, asWriter()).expect(200);
        return id;
      },
      expected: () => ({ ...tokenActor(), action: 'user.unblock', changedFields: ['status'] }),
    },
    {
      action: 'user.expire (POST expire)',
      prepare: async () => (await givenAuditedUser({ venueIds: ['venue-a', 'venue-b'] }))._id,
      change: async (id) => {
        await api(current()).users.expire(id, asWriter()).expect(200);
        return id;
      },
      expected: () => ({ ...tokenActor(), action: 'user.expire', venueIds: ['venue-a', 'venue-b'] }),
    },
    {
      action: 'user.expire (PUT status expired)',
      prepare: async () => (await givenAuditedUser())._id,
      change: async (id) => {
        await api(current()).users.update(id, { status: 'expired' }, asWriter()).expect(200);
        return id;
      },
      expected: () => ({ ...tokenActor(), action: 'user.expire', changedFields: ['status'] }),
    },
    {
      action: 'user.expire by the expiry sweep (system)',
      prepare: async () => {
        const user = await givenAuditedUser({ expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
        await current().dataSource.query('UPDATE hotspot_users SET expires_at = ? WHERE id = ?', [
          dateTimeParameter(new Date(Date.now() - 1000)),
          user._id,
        ]);
        return user._id;
      },
      change: async (id) => {
        expect(await current().app.get(HotspotUsersService).expireDue(100)).toBe(1);
        return id;
      },
      expected: () => ({ actorType: 'system', actorId: null, actorName: null, action: 'user.expire' }),
    },
    {
      action: 'user.delete',
      prepare: async () => (await givenAuditedUser({ venueIds: ['venue-b'] }))._id,
      change: async (id) => {
        await api(current()).users.remove(id, asWriter()).expect(200);
        return id;
      },
      expected: () => ({ ...tokenActor(), action: 'user.delete', venueIds: ['venue-b'] }),
    },
    {
      action: 'session.disconnect (session stop, cli)',
      prepare: async () => {
        const user = await givenAuditedUser();
        return (await startSession(current(), { userId: user._id, ...uniqueDevice() })).id;
      },
      change: async (id) => {
        expect((await cli('session', 'stop', id)).code).toBe(0);
        return id;
      },
      expected: () => ({ ...cliActor, action: 'session.disconnect', targetType: 'session', venueIds: ['venue-a'] }),
    },
    {
      action: 'token.create (cli)',
      change: async () => {
        const created = await cli('token', 'create', '--name', 'audit-cli', '--permissions', 'read', '--json');
        expect(created.code).toBe(0);
        const { id, token } = JSON.parse(created.stdout) as { id: string; token: string };
        SECRETS.add(token);
        return id;
      },
      expected: () => ({ ...cliActor, action: 'token.create', targetType: 'token', venueIds: null }),
    },
    {
      action: 'token.revoke (cli, by value)',
      prepare: async () => {
        const created = await cli('token', 'create', '--name', 'audit-revoked', '--permissions', 'read', '--json');
        const { id, token } = JSON.parse(created.stdout) as { id: string; token: string };
        SECRETS.add(token);
        revokedTokens.set(id, token);
        return id;
      },
      change: async (id) => {
        expect((await cli('token', 'revoke', revokedTokens.get(id)!)).code).toBe(0);
        return id;
      },
      expected: () => ({ ...cliActor, action: 'token.revoke', targetType: 'token' }),
    },
    {
      action: 'nas.add (cli)',
      change: async () => {
        const added = await cli(
          'nas',
          'add',
          '--venue',
          'venue-n',
          '--name',
          'audit-nas-1',
          '--ip',
          '192.0.2.41',
          '--secret',
          NAS_SECRET,
          '--json',
        );
        expect(added.code).toBe(0);
        return (JSON.parse(added.stdout) as { id: string }).id;
      },
      expected: () => ({ ...cliActor, action: 'nas.add', targetType: 'nas', venueIds: ['venue-n'] }),
    },
    {
      action: 'nas.update (cli nas set, the changed fields named)',
      prepare: () => registeredNas('audit-nas-2', '192.0.2.42'),
      change: async (id) => {
        expect((await cli('nas', 'set', id, '--coa-port', '1700', '--vendor', 'other', '--no-coa')).code).toBe(0);
        return id;
      },
      expected: () => ({ ...cliActor, action: 'nas.update', changedFields: ['acceptsCoa', 'coaPort'] }),
    },
    {
      action: 'nas.remove (cli)',
      prepare: () => registeredNas('audit-nas-3', '192.0.2.43'),
      change: async (id) => {
        expect((await cli('nas', 'remove', 'audit-nas-3')).code).toBe(0);
        return id;
      },
      expected: () => ({ ...cliActor, action: 'nas.remove', targetType: 'nas', venueIds: ['venue-n'] }),
    },
    {
      action: 'operator.create (cli)',
      change: async () => {
        const created = await cli(
          'operator',
          'create',
          '--email',
          'audit-op-1@example.com',
          '--name',
          'Audit One',
          '--permissions',
          'read',
          '--venues',
          'venue-o',
          '--json',
        );
        expect(created.code).toBe(0);
        const { id, oneTimePassword } = JSON.parse(created.stdout) as { id: string; oneTimePassword: string };
        SECRETS.add(oneTimePassword);
        return id;
      },
      expected: () => ({ ...cliActor, action: 'operator.create', targetType: 'operator', venueIds: ['venue-o'] }),
    },
    ...(
      [
        ['operator.disable', ['disable']],
        ['operator.enable', ['enable']],
        ['operator.reset-password', ['reset-password']],
        ['2fa.reset', ['reset-2fa']],
      ] as const
    ).map(([action, argv], index) => ({
      action: `${action} (cli)`,
      prepare: () => registeredOperator(`audit-op-${index + 2}@example.com`),
      change: async (id: string) => {
        if (action === '2fa.reset') await enrolledTotp(id);
        if (action === 'operator.enable') await disabled(id);
        const result = await cli('operator', ...argv, id, '--json');
        expect(result.code).toBe(0);
        const { oneTimePassword } = JSON.parse(result.stdout) as { oneTimePassword?: string };
        if (oneTimePassword) SECRETS.add(oneTimePassword);
        return id;
      },
      expected: () => ({ ...cliActor, action, targetType: 'operator' as const, venueIds: null }),
    })),
  ];
  /** The values of the tokens the revoke case created, by id. */
  const revokedTokens = new Map<string, string>();

  /** An operator created before the case's own change (its operator.create row is left out of the case's rows). */
  async function registeredOperator(email: string): Promise<string> {
    const created = await cli('operator', 'create', '--email', email, '--name', 'Audited', '--permissions', 'read');
    expect(created.code).toBe(0);
    SECRETS.add(created.stdout.trim());
    const listed = JSON.parse((await cli('operator', 'list', '--json')).stdout) as Array<{ id: string; email: string }>;
    return listed.find((operator) => operator.email === email)!.id;
  }

  /** Disables the operator without an audit row of its own (what enable then changes). */
  async function disabled(id: string): Promise<void> {
    await current().dataSource.getRepository(OperatorEntity).update({ id }, { status: 'disabled' });
  }

  /** Marks the operator as enrolled in TOTP, so that a reset has something to reset. */
  async function enrolledTotp(id: string): Promise<void> {
    await current()
      .dataSource.getRepository(OperatorEntity)
      .update({ id }, { totpSecret: 'sealed-seed-of-the-test', totpEnrolledAt: new Date() });
  }

  /** A NAS added before the case's own change (its nas.add row is left out of the case's rows). */
  async function registeredNas(name: string, ip: string): Promise<string> {
    const added = await cli('nas', 'add', '--venue', 'venue-n', '--name', name, '--ip', ip, '--secret', NAS_SECRET);
    expect(added.code).toBe(0);
    const listed = JSON.parse((await cli('nas', 'list', '--json')).stdout) as Array<{ id: string; name: string }>;
    return listed.find((nas) => nas.name === name)!.id;
  }

  it.each(cases.map((entry) => [entry.action, entry] as const))(
    '%s writes exactly one audit row with its actor, action, target and venues',
    async (_name, entry) => {
      const prepared = entry.prepare === undefined ? '' : await entry.prepare();
      let targetId = '';
      const written = await eventsWrittenBy(async () => (targetId = await entry.change(prepared)));
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({ targetId, outcome: 'success', ...entry.expected() });
      if (written[0].actorType === 'token') {
        expect(written[0].clientAddress).toMatch(LOOPBACK);
        expect(written[0].requestId).toMatch(/^[\w.:-]+$/);
      } else {
        expect(written[0]).toMatchObject({ clientAddress: null, requestId: null });
      }
    },
  );

  it('an Idempotency-Key replay writes no second row (the replay runs no change)', async () => {
    const body = userBody({ password: password('replay'), venueIds: ['venue-a'] });
    const send = () => api(current()).users.create(body, asWriter()).set('Idempotency-Key', 'audit-replay-1');
    const first = await send().expect(201);
    const replay = await send().expect(201);
    expect(replay.body.data._id).toBe(first.body.data._id);
    const rows = (await allEvents()).filter((event) => event.targetId === first.body.data._id);
    expect(rows.map((event) => event.action)).toEqual(['user.create']);
  });

  it('a change refused on a uniqueness clash writes no row', async () => {
    await givenAuditedUser({ username: 'audit-taken', venueIds: ['venue-a'] });
    const other = await givenAuditedUser({ venueIds: ['venue-a'] });
    const written = await eventsWrittenBy(() =>
      api(current()).users.update(other._id, { username: 'audit-taken', name: 'Clash' }, asWriter()).expect(409),
    );
    expect(written).toEqual([]);
  });

  it('a change whose transaction fails after its writes leaves neither the change nor its row', async () => {
    const user = await givenAuditedUser({ name: 'Kept' });
    // The database itself refuses this user's audit row: the PUT's writes are done when it fails.
    const trigger = 'audit_events_refuse_test';
    if (current().kind === 'sqlite') {
      await current().dataSource.query(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON audit_events WHEN NEW.target_id = '${user._id}'
         BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      );
    } else {
      await current().dataSource.query(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON audit_events FOR EACH ROW
         BEGIN IF NEW.target_id = '${user._id}' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'; END IF; END`,
      );
    }
    try {
      const written = await eventsWrittenBy(async () => {
        const answer = await api(current()).users.update(user._id, { name: 'Changed' }, asWriter());
        expect(answer.status).toBe(500);
        expect(JSON.stringify(answer.body)).not.toContain('refused by the test');
      });
      expect(written).toEqual([]);
    } finally {
      await current().dataSource.query(`DROP TRIGGER ${trigger}`);
    }
    const stored = await api(current()).users.get(user._id).expect(200);
    expect(stored.body.data).toMatchObject({ name: 'Kept' });
    await api(current()).users.update(user._id, { name: 'Changed' }, asWriter()).expect(200);
  });

  it('an event recorded in a transaction that rolls back is not kept', async () => {
    const { database, app } = current();
    await expect(
      database.transaction(async (em) => {
        await app.get(AuditService).record(em, {
          actor: CLI_ACTOR,
          action: 'nas.add',
          target: { type: 'nas', id: 'rolled-back-nas' },
          venueIds: ['venue-x'],
        });
        throw new Error('the change failed after its event');
      }),
    ).rejects.toThrow('the change failed after its event');
    expect((await allEvents()).filter((event) => event.targetId === 'rolled-back-nas')).toEqual([]);
  });

  describe('hotspot audit list', () => {
    let user: { _id: string };

    beforeAll(async () => {
      user = await givenAuditedUser();
      await api(current()).users.update(user._id, { name: 'Listed' }, asWriter()).expect(200);
      await api(current()).users.update(user._id, { status: 'blocked' }, asWriter()).expect(200);
    });

    const listed = async (...argv: string[]) => {
      const result = await cli('audit', 'list', ...argv, '--json');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      return JSON.parse(result.stdout) as Array<{
        id: string;
        occurredAt: string;
        action: string;
        actor: { type: string; id: string | null; name: string | null };
        target: { type: string; id: string };
      }>;
    };

    it('--target: the events of one target, newest first, as JSON', async () => {
      const events = await listed('--target', user._id);
      expect(events.map((event) => event.action)).toEqual(['user.block', 'user.update', 'user.create']);
      expect(events[0]).toMatchObject({
        actor: { type: 'token', id: writer.id, name: writer.name },
        target: { type: 'user', id: user._id },
      });
      const times = events.map((event) => event.occurredAt);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('--actor matches the token by id and by name, and cli / system by their type', async () => {
      const byName = await listed('--actor', writer.name, '--limit', '1000');
      const byId = await listed('--actor', writer.id, '--limit', '1000');
      expect(byName.length).toBeGreaterThan(0);
      expect(byId).toEqual(byName);
      expect(byName.every((event) => event.actor.id === writer.id)).toBe(true);
      const byCli = await listed('--actor', 'cli', '--limit', '1000');
      expect(byCli.length).toBeGreaterThan(0);
      expect(byCli.every((event) => event.actor.type === 'cli')).toBe(true);
      expect(await listed('--actor', 'nobody-at-all')).toEqual([]);
    });

    it('--action, --since and --limit narrow the list', async () => {
      const blocks = await listed('--action', 'user.block', '--limit', '1000');
      expect(blocks.map((event) => event.target.id)).toContain(user._id);
      expect(blocks.every((event) => event.action === 'user.block')).toBe(true);
      expect(await listed('--since', new Date(Date.now() + 60_000).toISOString())).toEqual([]);
      expect(await listed('--target', user._id, '--limit', '1')).toHaveLength(1);
    });

    it('prints a table with a header by default, and refuses a bad option as bad usage', async () => {
      const table = await cli('audit', 'list', '--target', user._id);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[0]).toMatch(/^TIME\s+ACTOR\s+ACTION\s+TARGET\s+VENUES/);
      expect(table.stdout).toContain(`token:${writer.name}`);
      const bad = await cli('audit', 'list', '--action', 'user.explode');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("option '--action' must be one of");
    });
  });

  it('retention: the sweep deletes events older than AUDIT_RETENTION_DAYS (400) and keeps the others', async () => {
    const { database, app, dataSource } = current();
    const ids: Record<string, string> = {};
    for (const [label, days] of [
      ['old', 401],
      ['recent', 399],
    ] as const) {
      const event = await database.transaction((em) =>
        app.get(AuditService).record(em, {
          actor: CLI_ACTOR,
          action: 'nas.remove',
          target: { type: 'nas', id: `retention-${label}` },
          venueIds: null,
        }),
      );
      ids[label] = event.id;
      await dataSource.query('UPDATE audit_events SET occurred_at = ? WHERE id = ?', [
        dateTimeParameter(new Date(Date.now() - days * 86_400_000)),
        event.id,
      ]);
    }
    expect(await app.get(AuditRetentionSweeper).sweep()).toBe(1);
    const left = new Set((await allEvents()).map((event) => event.id));
    expect(left.has(ids.old)).toBe(false);
    expect(left.has(ids.recent)).toBe(true);
  });

  // Last: it reads every row the suite's changes wrote.
  it('no audit row holds a secret the suite used (token values, user passwords, NAS secrets)', async () => {
    const events = await allEvents();
    expect(events.length).toBeGreaterThan(cases.length);
    expect(SECRETS.size).toBeGreaterThan(cases.length);
    const rows = await current().dataSource.query<Array<Record<string, unknown>>>('SELECT * FROM audit_events');
    const text = JSON.stringify(rows);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});
