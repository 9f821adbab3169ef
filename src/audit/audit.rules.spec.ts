import {
  actorOf,
  auditRecord,
  auditRowVisible,
  changedFieldNames,
  CLI_ACTOR,
  deniedAccessDue,
  deniedPage,
  DENIED_ACCESS_INTERVAL_MS,
  retentionCutoff,
  userUpdateAction,
  type AuditEventInput,
} from './audit.rules.js';

const NOW = new Date('2026-11-25T12:00:00.123Z');

describe('auditRecord', () => {
  const input: AuditEventInput = {
    actor: { type: 'token', id: 'tok-1', name: 'integration' },
    action: 'user.update',
    target: { type: 'user', id: 'user-1' },
    venueIds: ['venue-b', 'venue-a', 'venue-b'],
    changedFields: ['name', 'email', 'name'],
    origin: { clientAddress: '203.0.113.7', requestId: 'req-1' },
  };

  it('copies who, what, on what and from where; venue and field names sorted and once each; success by default', () => {
    expect(auditRecord(input, 'event-1', NOW)).toEqual({
      id: 'event-1',
      occurredAt: NOW,
      actorType: 'token',
      actorId: 'tok-1',
      actorName: 'integration',
      action: 'user.update',
      changedFields: ['email', 'name'],
      targetType: 'user',
      targetId: 'user-1',
      venueIds: ['venue-a', 'venue-b'],
      clientAddress: '203.0.113.7',
      requestId: 'req-1',
      outcome: 'success',
    });
  });

  it('has no changed fields unless given, no origin for the command line, and keeps a failure outcome', () => {
    const record = auditRecord(
      {
        actor: CLI_ACTOR,
        action: 'token.revoke',
        target: { type: 'token', id: 't' },
        venueIds: null,
        outcome: 'failure',
      },
      'event-2',
      NOW,
    );
    expect(record).toMatchObject({
      actorType: 'cli',
      actorId: null,
      actorName: null,
      changedFields: null,
      venueIds: null,
      clientAddress: null,
      requestId: null,
      outcome: 'failure',
    });
  });

  it('keeps only the fields it names: anything else handed in (a password, a secret) is not stored', () => {
    const withExtras = { ...input, password: 'hunter2-hunter2', secret: 'nas-secret-value' } as AuditEventInput;
    const stored = JSON.stringify(auditRecord(withExtras, 'event-3', NOW));
    expect(stored).not.toContain('hunter2');
    expect(stored).not.toContain('nas-secret-value');
  });

  it('cuts an over-long actor name and request id to their columns', () => {
    const record = auditRecord(
      {
        ...input,
        actor: { type: 'operator', id: 'op', name: 'x'.repeat(300) },
        origin: { clientAddress: null, requestId: 'r'.repeat(200) },
      },
      'event-4',
      NOW,
    );
    expect(record.actorName).toHaveLength(254);
    expect(record.requestId).toHaveLength(128);
  });
});

describe('actorOf', () => {
  it('turns a token and an operator into their audit actor (id and name)', () => {
    expect(actorOf({ kind: 'token', id: 't1', name: 'pos' })).toEqual({ type: 'token', id: 't1', name: 'pos' });
    expect(actorOf({ kind: 'operator', id: 'o1', name: 'a@b.example' })).toEqual({
      type: 'operator',
      id: 'o1',
      name: 'a@b.example',
    });
  });
});

describe('changedFieldNames', () => {
  const stored = {
    name: 'Ayşe',
    email: null,
    expiresAt: new Date('2027-01-01T00:00:00Z'),
    venueIds: ['a', 'b'],
    metadata: { room: 12, floor: 3 },
    status: 'active',
  };

  it.each([
    ['nothing sent', {}, []],
    ['the same values', { name: 'Ayşe', email: null, status: 'active' }, []],
    ['a new name', { name: 'Ayse' }, ['name']],
    ['an email where there was none', { email: 'a@example.com' }, ['email']],
    ['the same instant as another Date', { expiresAt: new Date('2027-01-01T00:00:00.000Z') }, []],
    ['another instant', { expiresAt: new Date('2027-01-02T00:00:00Z') }, ['expiresAt']],
    ['expiry cleared', { expiresAt: null }, ['expiresAt']],
    ['venues in another order', { venueIds: ['b', 'a'] }, []],
    ['a venue more', { venueIds: ['a', 'b', 'c'] }, ['venueIds']],
    ['metadata with keys in another order', { metadata: { floor: 3, room: 12 } }, []],
    ['metadata changed', { metadata: { room: 13, floor: 3 } }, ['metadata']],
    ['several, named in order', { status: 'blocked', name: 'B', email: 'x@example.com' }, ['email', 'name', 'status']],
    ['a field left undefined', { name: undefined }, []],
  ])('%s', (_case, sent, expected) => {
    expect(changedFieldNames(stored, sent, ['venueIds'])).toEqual(expected);
  });

  it('returns names only, never a value', () => {
    const names = changedFieldNames({ name: 'old-value' }, { name: 'new-secret-value' });
    expect(JSON.stringify(names)).not.toContain('value');
  });
});

describe('userUpdateAction', () => {
  it.each([
    ['active', 'active', 'user.update'],
    ['active', 'blocked', 'user.block'],
    ['blocked', 'active', 'user.unblock'],
    ['active', 'expired', 'user.expire'],
    ['blocked', 'expired', 'user.expire'],
    ['blocked', 'blocked', 'user.update'],
  ])('%s → %s: %s', (from, to, action) => {
    expect(userUpdateAction(from, to)).toBe(action);
  });
});

describe('retentionCutoff', () => {
  it('counts the retention back from now in whole days', () => {
    expect(retentionCutoff(NOW, 400)).toEqual(new Date(NOW.getTime() - 400 * 86_400_000));
  });
});

describe('auditRowVisible', () => {
  const row = (targetType: AuditEventInput['target']['type'], venueIds: string[] | null) => ({ targetType, venueIds });
  const venueA = { admin: false, venueIds: ['A'] };

  it('shows an administrator every row', () => {
    expect(auditRowVisible(row('token', null), { admin: true, venueIds: ['A'] })).toBe(true);
    expect(auditRowVisible(row('user', ['B']), { admin: true, venueIds: ['A'] })).toBe(true);
  });

  it("shows another operator only rows whose venues all lie within its own, never a token's or operator's", () => {
    expect(auditRowVisible(row('user', ['A']), venueA)).toBe(true);
    expect(auditRowVisible(row('user', ['A', 'B']), venueA)).toBe(false);
    expect(auditRowVisible(row('user', ['B']), venueA)).toBe(false);
    expect(auditRowVisible(row('token', ['A']), venueA)).toBe(false);
    expect(auditRowVisible(row('operator', ['A']), venueA)).toBe(false);
    expect(auditRowVisible(row('user', null), venueA)).toBe(false);
    expect(auditRowVisible(row('user', []), venueA)).toBe(false);
    expect(auditRowVisible(row('nas', ['A', 'B']), { admin: false, venueIds: null })).toBe(true);
    expect(auditRowVisible(row('token', null), { admin: false, venueIds: null })).toBe(false);
  });
});

describe('refused console requests', () => {
  it('get a row at most once a minute per operator, and again when the clock went back', () => {
    expect(deniedAccessDue(undefined, 1_000)).toBe(true);
    expect(deniedAccessDue(1_000, 1_000 + DENIED_ACCESS_INTERVAL_MS - 1)).toBe(false);
    expect(deniedAccessDue(1_000, 1_000 + DENIED_ACCESS_INTERVAL_MS)).toBe(true);
    expect(deniedAccessDue(5_000, 1_000)).toBe(true);
  });

  it("name the route's pattern, cut to the column's 64 characters", () => {
    expect(deniedPage('/admin/settings/operators/:id/:action')).toBe('/admin/settings/operators/:id/:action');
    expect(deniedPage('/admin/' + 'x'.repeat(100))).toHaveLength(64);
  });
});

describe("an actor's origin", () => {
  it('goes into every row the actor causes, unless the event names its own', () => {
    const origin = { clientAddress: '192.0.2.7', requestId: 'req-1' };
    const actor = actorOf({ kind: 'operator', id: 'op-1', name: 'ops@example.com' }, origin);
    const event = {
      actor,
      action: 'token.create' as const,
      target: { type: 'token' as const, id: 't1' },
      venueIds: null,
    };
    expect(auditRecord(event, 'e1', new Date(0))).toMatchObject(origin);
    const own = { clientAddress: '198.51.100.1', requestId: 'req-2' };
    expect(auditRecord({ ...event, origin: own }, 'e2', new Date(0))).toMatchObject(own);
    expect(auditRecord({ ...event, actor: CLI_ACTOR }, 'e3', new Date(0))).toMatchObject({
      clientAddress: null,
      requestId: null,
    });
  });
});
