import type { AuditFilter } from '../../audit/audit.rules.js';
import { AuditEventEntity } from '../../audit/entities/audit-event.entity.js';
import { FakeRuntime, runCli } from '../../testing/cli.js';
import { AUDIT_SERVICE, type AuditReader } from './audit.js';

function event(overrides: Partial<AuditEventEntity> = {}): AuditEventEntity {
  return Object.assign(new AuditEventEntity(), {
    id: 'event-1',
    occurredAt: new Date('2030-01-01T00:00:00.000Z'),
    actorType: 'token',
    actorId: 'token-1',
    actorName: 'pms',
    action: 'user.update',
    changedFields: ['email', 'name'],
    targetType: 'user',
    targetId: 'user-1',
    venueIds: ['venue-a', 'venue-b'],
    clientAddress: '203.0.113.9',
    requestId: 'req-1',
    outcome: 'success',
    ...overrides,
  } satisfies Partial<AuditEventEntity>);
}

class FakeAudit implements AuditReader {
  filters: AuditFilter[] = [];
  events: AuditEventEntity[] = [];
  list(filter: AuditFilter) {
    this.filters.push(filter);
    return Promise.resolve(this.events);
  }
}

describe('hotspot audit list', () => {
  let audit: FakeAudit;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'audit', 'list', ...argv);

  beforeEach(() => {
    audit = new FakeAudit();
    runtime = new FakeRuntime().provide(AUDIT_SERVICE, audit);
  });

  it('passes every filter to the service (the date an instant) and --json prints a JSON array', async () => {
    audit.events = [event()];
    const result = await run(
      '--actor',
      'pms',
      '--target',
      'user-1',
      '--action',
      'user.update',
      '--since',
      '2030-01-01T01:00:00+01:00',
      '--limit',
      '5',
      '--json',
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(audit.filters).toEqual([
      {
        actor: 'pms',
        targetId: 'user-1',
        action: 'user.update',
        since: new Date('2030-01-01T00:00:00.000Z'),
        limit: 5,
      },
    ]);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        id: 'event-1',
        occurredAt: '2030-01-01T00:00:00.000Z',
        actor: { type: 'token', id: 'token-1', name: 'pms' },
        action: 'user.update',
        target: { type: 'user', id: 'user-1' },
        venueIds: ['venue-a', 'venue-b'],
        changedFields: ['email', 'name'],
        clientAddress: '203.0.113.9',
        requestId: 'req-1',
        outcome: 'success',
      },
    ]);
  });

  it('without options: the newest 50, as an aligned table with a header', async () => {
    audit.events = [
      event(),
      event({
        id: 'event-0',
        actorType: 'cli',
        actorId: null,
        actorName: null,
        action: 'token.create',
        targetType: 'token',
        targetId: 'token-9',
        venueIds: null,
        changedFields: null,
        clientAddress: null,
      }),
    ];
    const result = await run();
    expect(result.code).toBe(0);
    expect(audit.filters).toEqual([
      { actor: undefined, targetId: undefined, action: undefined, since: undefined, limit: 50 },
    ]);
    expect(result.stdout.split('\n')).toEqual([
      'TIME                      ACTOR      ACTION        TARGET         VENUES           OUTCOME  FROM         CHANGED',
      '2030-01-01T00:00:00.000Z  token:pms  user.update   user user-1    venue-a,venue-b  success  203.0.113.9  email,name',
      '2030-01-01T00:00:00.000Z  cli        token.create  token token-9  *                success  -            -',
      '',
    ]);
  });

  it('no events: nothing on stdout, a note on stderr; --json prints []', async () => {
    expect(await run()).toEqual({ code: 0, stdout: '', stderr: 'No audit events match.\n' });
    expect(await run('--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it.each([
    [['--since', '2030-02-30T00:00:00Z'], "option '--since' must be an ISO 8601 date-time"],
    [['--since', 'yesterday'], "option '--since' must be an ISO 8601 date-time"],
    [['--action', 'user.frobnicate'], "option '--action' must be one of user.create, user.update"],
    [['--actor', ''], "option '--actor' must be 1-254 characters"],
    [['--target', 'x'.repeat(65)], "option '--target' must be 1-64 characters"],
    [['--target', 'a\u0007b'], "option '--target' must not contain control characters"],
    [['--limit', '0'], "option '--limit' must be an integer from 1 to 1000"],
    [['--limit', '1001'], "option '--limit' must be an integer from 1 to 1000"],
    [['--limit', 'ten'], "option '--limit' must be an integer from 1 to 1000"],
    [['--actor', 'a', '--actor', 'b'], "option '--actor' may be given only once"],
    [['--json', '--json'], "option '--json' may be given only once"],
  ])('%j: a usage error (exit 2), no service asked', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(runtime.uses).toBe(0);
  });
});
