import { getMetadataStorage } from 'class-validator';
import { UpdateHotspotUserDto } from './dto/update-hotspot-user.dto.js';
import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import type { UpdateUserInput } from './hotspot-user.inputs.js';
import { USER_TEXT_FIELDS, userTextOf } from './user-text-fields.js';
import {
  appliedUpdate,
  callsForCoa,
  clashErrors,
  conflictErrors,
  ENDINGS,
  expiredUser,
  expiryErrors,
  fieldOfDuplicateKeyError,
  generatedPassword,
  hasLapsed,
  isDueForExpiry,
  KeyConflict,
  keysOf,
  newUser,
  removedVenues,
  statusMove,
  updateErrors,
  venueRowChanges,
  venuesOfJob,
  validityAtFirstLogin,
  writesUnauthJob,
  type UniquenessKeys,
} from './hotspot-user.rules.js';

const now = new Date('2030-01-01T10:00:00.000Z');
const later = new Date('2030-01-01T11:00:00.000Z');

function user(overrides: Partial<HotspotUserEntity> = {}): HotspotUserEntity {
  const created = newUser(
    {
      name: 'Ayşe',
      loginMethod: 'username_password',
      venueIds: ['venue-a'],
      username: 'Room-1204',
      password: 'secret',
      ...userTextOf({ email: 'Ayse@Example.com', phone: '+90 532 123 45 67', room: '1204' }),
      macAddress: 'AA:BB:CC:DD:EE:FF',
      expiresAt: null,
      validFor: null,
      planId: null,
      metadata: { room: '1204' },
    },
    'u1',
    'hash',
    now,
  );
  return Object.assign(created, overrides);
}

describe('status transitions', () => {
  it('refuses every PUT of an expired user, whatever the status it asks for', () => {
    for (const to of [undefined, 'active', 'blocked', 'expired'] as const) {
      expect(statusMove('expired', to)).toEqual({ kind: 'refused' });
    }
  });

  it('changes nothing without a status or with the same one', () => {
    expect(statusMove('active', undefined)).toEqual({ kind: 'unchanged' });
    expect(statusMove('active', 'active')).toEqual({ kind: 'unchanged' });
    expect(statusMove('blocked', 'blocked')).toEqual({ kind: 'unchanged' });
  });

  it('moves active and blocked into blocked or expired, ending sessions with an unauth job', () => {
    expect(statusMove('active', 'blocked')).toEqual({ kind: 'moved', to: 'blocked', ending: ENDINGS.blockedByUpdate });
    expect(statusMove('active', 'expired')).toEqual({ kind: 'moved', to: 'expired', ending: ENDINGS.expiredByUpdate });
    expect(statusMove('blocked', 'expired')).toEqual({ kind: 'moved', to: 'expired', ending: ENDINGS.expiredByUpdate });
  });

  it('unblocks without ending anything', () => {
    expect(statusMove('blocked', 'active')).toEqual({ kind: 'moved', to: 'active', ending: null });
  });

  it('writes a job for a PUT into blocked or expired even without sessions; otherwise only when sessions ended', () => {
    expect(writesUnauthJob(ENDINGS.blockedByUpdate, 0)).toBe(true);
    expect(writesUnauthJob(ENDINGS.expiredByUpdate, 0)).toBe(true);
    for (const ending of [ENDINGS.expiredByRequest, ENDINGS.expiredBySweep, ENDINGS.deleted]) {
      expect(writesUnauthJob(ending, 0)).toBe(false);
      expect(writesUnauthJob(ending, 1)).toBe(true);
    }
    expect([ENDINGS.expiredByRequest.reason, ENDINGS.expiredBySweep.reason, ENDINGS.deleted.reason]).toEqual([
      'expired',
      'expiry',
      'deleted',
    ]);
  });
});

describe('expiry', () => {
  it('counts an expiry time as lapsed from its very instant', () => {
    expect(hasLapsed(null, now)).toBe(false);
    expect(hasLapsed(new Date(now.getTime() + 1), now)).toBe(false);
    expect(hasLapsed(now, now)).toBe(true);
  });

  it('makes active and blocked users due once their expiry has lapsed, never expired ones', () => {
    expect(isDueForExpiry(user({ expiresAt: now }), now)).toBe(true);
    expect(isDueForExpiry(user({ status: 'blocked', expiresAt: now }), now)).toBe(true);
    expect(isDueForExpiry(user({ status: 'expired', expiresAt: now }), now)).toBe(false);
    expect(isDueForExpiry(user({ expiresAt: later }), now)).toBe(false);
    expect(isDueForExpiry(user(), now)).toBe(false);
  });

  it('accepts expiresAt only for username_password users, and only in the future', () => {
    expect(expiryErrors('username_password', later, now)).toEqual([]);
    expect(expiryErrors('guest', null, now)).toEqual([]);
    expect(expiryErrors('guest', undefined, now)).toEqual([]);
    expect(expiryErrors('guest', later, now)).toEqual([
      { field: 'expiresAt', message: 'expiresAt applies to username_password users only' },
    ]);
    expect(expiryErrors('username_password', now, now)).toEqual([
      { field: 'expiresAt', message: 'expiresAt must lie in the future' },
    ]);
  });

  it('expires a user without changing the one given', () => {
    const active = user();
    expect(expiredUser(active, later)).toMatchObject({
      status: 'expired',
      updatedAt: later,
      username: 'Room-1204',
      version: 2,
    });
    expect(active.status).toBe('active');
  });
});

describe('creation and PUT changes', () => {
  it('creates users active, created and updated now', () => {
    expect(user()).toMatchObject({ id: 'u1', status: 'active', passwordHash: 'hash', createdAt: now, updatedAt: now });
    expect(user().version).toBe(1);
  });

  it('refuses removing the username of a username_password user, but not of a guest', () => {
    expect(updateErrors(user(), { username: null }, now)).toEqual([
      { field: 'username', message: 'username cannot be removed from a username_password user' },
    ]);
    expect(updateErrors(user({ loginMethod: 'guest' }), { username: null }, now)).toEqual([]);
  });

  it('checks the expiry against the stored login method', () => {
    expect(updateErrors(user({ loginMethod: 'guest' }), { expiresAt: later }, now)).toEqual([
      { field: 'expiresAt', message: 'expiresAt applies to username_password users only' },
    ]);
  });

  it('applies only the fields sent, clears with null, and moves updatedAt on an empty PUT too', () => {
    const stored = user({ expiresAt: later });
    const { user: updated, changes } = appliedUpdate(stored, { email: null, status: 'blocked' }, later);
    expect(updated).toMatchObject({ email: null, status: 'blocked', name: 'Ayşe', expiresAt: later, updatedAt: later });
    expect(changes).toEqual({
      name: 'Ayşe',
      username: 'Room-1204',
      ...userTextOf(stored),
      email: null,
      macAddress: 'AA:BB:CC:DD:EE:FF',
      expiresAt: later,
      validFor: null,
      planId: null,
      metadata: { room: '1204' },
      status: 'blocked',
      updatedAt: later,
      version: 2,
    });
    expect(stored.email).toBe('Ayse@Example.com');
    expect(appliedUpdate(stored, {}, later).user).toEqual({ ...stored, updatedAt: later, version: 2 });
  });

  it('applies every field a PUT may send, as UpdateHotspotUserDto declares them (venueIds: the writer)', () => {
    // A field added to the DTO and left out of appliedUpdate (or of this list of values) fails here.
    const sent: Required<Omit<UpdateUserInput, 'venueIds'>> = {
      name: 'Zeynep',
      username: 'room-2201',
      ...userTextOf(Object.fromEntries(USER_TEXT_FIELDS.map((field) => [field, `sent ${field}`]))),
      macAddress: 'AA:BB:CC:DD:EE:22',
      expiresAt: new Date(later.getTime() + 86_400_000),
      validFor: 3600,
      planId: 'plan-1',
      status: 'blocked',
      metadata: { room: '2201' },
    };
    const declared = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(UpdateHotspotUserDto, '', true, false)
        .map((metadata) => metadata.propertyName),
    );
    // loginMethod is declared only to be refused; venueIds moves the user's venue rows (HotspotUserWriter).
    declared.delete('loginMethod');
    declared.delete('venueIds');
    expect([...declared].sort()).toEqual(Object.keys(sent).sort());
    for (const field of Object.keys(sent) as Array<keyof typeof sent>) {
      const { changes } = appliedUpdate(user(), { [field]: sent[field] }, later);
      expect([field, changes[field]]).toEqual([field, sent[field]]);
    }
  });

  it('never writes columns a PUT cannot change', () => {
    const { changes } = appliedUpdate(user(), { name: 'B' }, later);
    expect(Object.keys(changes).sort()).toEqual(
      [
        ...USER_TEXT_FIELDS,
        'expiresAt',
        'macAddress',
        'metadata',
        'name',
        'planId',
        'status',
        'updatedAt',
        'username',
        'validFor',
        'version',
      ].sort(),
    );
  });
});

describe('uniqueness', () => {
  const keys: UniquenessKeys = { usernameKey: 'room-1204', emailKey: 'ayse@example.com', phoneKey: '+905321234567' };

  it('keys usernames and emails case-insensitively and phones by their digits', () => {
    expect(keysOf(user())).toEqual(keys);
    expect(keysOf(user({ phone: '0532 123 45 67' })).phoneKey).toBe('05321234567');
    expect(keysOf(user({ username: null, email: null, phone: null }))).toEqual({
      usernameKey: null,
      emailKey: null,
      phoneKey: null,
    });
  });

  it('gives expired users no keys, so their username, email and phone are free', () => {
    expect(keysOf(user({ status: 'expired' }))).toEqual({ usernameKey: null, emailKey: null, phoneKey: null });
    expect(keysOf(user({ status: 'blocked' }))).toEqual(keys);
  });

  it('names each clash per venue, in the order of the venues and fields', () => {
    const holders = [
      { venueId: 'v2', usernameKey: 'room-1204', emailKey: null, phoneKey: '+905321234567' },
      { venueId: 'v1', usernameKey: null, emailKey: 'ayse@example.com', phoneKey: null },
      { venueId: 'v3', usernameKey: 'room-1204', emailKey: null, phoneKey: null },
    ];
    expect(clashErrors(['v1', 'v2'], keys, holders)).toEqual([
      { field: 'email', message: 'email already used in venue v1' },
      { field: 'username', message: 'username already used in venue v2' },
      { field: 'phone', message: 'phone already used in venue v2' },
    ]);
    expect(clashErrors(['v1'], { ...keys, emailKey: null }, holders)).toEqual([]);
  });

  it('names the field of a duplicate-key error from the index (MySQL) or the column (SQLite)', () => {
    const mysql = new Error("Duplicate entry 'v1-a@x.com' for key 'hotspot_user_venues.uq_user_venues_email'");
    const sqlite = new Error('UNIQUE constraint failed: hotspot_user_venues.venue_id, hotspot_user_venues.phone_key');
    expect(fieldOfDuplicateKeyError(mysql)).toBe('email');
    expect(fieldOfDuplicateKeyError(sqlite)).toBe('phone');
    expect(fieldOfDuplicateKeyError(new Error('something else'))).toBeNull();
    expect(fieldOfDuplicateKeyError(null)).toBeNull();
  });

  it('answers a lost race with the clashes found after it, else with the field the error names', () => {
    const cause = new Error("Duplicate entry for key 'uq_user_venues_phone'");
    const conflict = new KeyConflict('u1', ['v1'], keys, cause);
    expect(
      conflictErrors(conflict, [{ venueId: 'v1', usernameKey: 'room-1204', emailKey: null, phoneKey: null }]),
    ).toEqual([{ field: 'username', message: 'username already used in venue v1' }]);
    expect(conflictErrors(conflict, [])).toEqual([
      { field: 'phone', message: "phone already used in one of the user's venues" },
    ]);
    expect(conflictErrors(new KeyConflict('u1', ['v1'], keys, new Error('?')), [])).toEqual([
      { field: 'username', message: "username already used in one of the user's venues" },
    ]);
  });
});

describe('venue rows', () => {
  it('keeps rows that stay, deletes only removed venues and inserts only added ones, positioned as sent', () => {
    expect(venueRowChanges(['a', 'b', 'c'], ['c', 'd', 'a'])).toEqual({
      removed: ['b'],
      kept: [
        { venueId: 'c', position: 0 },
        { venueId: 'a', position: 2 },
      ],
      added: [{ venueId: 'd', position: 1 }],
    });
  });

  it('inserts every venue of a new user and deletes nothing', () => {
    expect(venueRowChanges([], ['a', 'b'])).toEqual({
      removed: [],
      kept: [],
      added: [
        { venueId: 'a', position: 0 },
        { venueId: 'b', position: 1 },
      ],
    });
  });
});

describe('callsForCoa (a changed expiresAt reaches the NAS as a CoA)', () => {
  const now = new Date('2030-01-01T10:00:00.000Z');
  const inAnHour = new Date('2030-01-01T11:00:00.000Z');
  const inADay = new Date('2030-01-02T10:00:00.000Z');
  const active = (expiresAt: Date | null) => ({ status: 'active' as const, expiresAt });

  it.each([
    ['moved later', active(inAnHour), active(inADay), 1, true],
    ['moved earlier', active(inADay), active(inAnHour), 2, true],
    ['set where there was none', active(null), active(inAnHour), 1, true],
    ['removed (the cap applies)', active(inAnHour), active(null), 1, true],
    ['the same instant again', active(inAnHour), active(new Date(inAnHour)), 1, false],
    ['no RADIUS session', active(inAnHour), active(inADay), 0, false],
    ['blocked by the same PUT', active(inAnHour), { status: 'blocked' as const, expiresAt: inADay }, 1, false],
    [
      'a blocked user',
      { status: 'blocked' as const, expiresAt: inAnHour },
      { status: 'blocked' as const, expiresAt: inADay },
      1,
      false,
    ],
    [
      'moved into the past (the user expires instead)',
      active(inAnHour),
      active(new Date('2030-01-01T09:00:00.000Z')),
      1,
      false,
    ],
  ])('%s: %s', (_, before, after, sessions, expected) => {
    expect(callsForCoa(before, after, sessions, now)).toBe(expected);
  });
});

describe('removedVenues', () => {
  it('is the venues the change takes away, in their stored order', () => {
    expect(removedVenues(['a', 'b', 'c'], ['c', 'd'])).toEqual(['a', 'b']);
    expect(removedVenues(['a', 'b'], ['b', 'a'])).toEqual([]);
    expect(removedVenues(['a'], ['a', 'b'])).toEqual([]);
  });

  it('writes a job only when sessions ended', () => {
    expect(writesUnauthJob(ENDINGS.removedFromVenues, 0)).toBe(false);
    expect(writesUnauthJob(ENDINGS.removedFromVenues, 2)).toBe(true);
  });
});

describe('venuesOfJob (who may read an unauth job)', () => {
  const sessions = [{ venueId: 'b' }, { venueId: 'c' }, { venueId: 'b' }];

  it("is the user's venues while the user exists, whatever the job's sessions", () => {
    expect(venuesOfJob(['a'], sessions)).toEqual(['a']);
  });

  it("is the venues of the job's sessions once the user is deleted; none without sessions", () => {
    expect(venuesOfJob(null, sessions)).toEqual(['b', 'c']);
    expect(venuesOfJob(null, [])).toEqual([]);
  });
});

describe('generatedPassword', () => {
  it('makes two groups of five unambiguous characters, skipping the bytes that would bias them', () => {
    const bytes = Uint8Array.from([255, 248, ...Array.from({ length: 30 }, (_, i) => i)]);
    expect(generatedPassword(bytes)).toBe('abcde-fghjk');
    expect(generatedPassword(new Uint8Array(32).fill(250))).toBeNull();
  });
});

describe('validityAtFirstLogin', () => {
  const at = new Date('2030-01-01T10:00:00.000Z');

  it('starts the validity at the first login: then plus validFor', () => {
    expect(validityAtFirstLogin({ validFor: 3600, firstLoginAt: null, expiresAt: null }, at)).toEqual({
      firstLoginAt: at,
      expiresAt: new Date('2030-01-01T11:00:00.000Z'),
    });
  });

  it('keeps an earlier stored expiresAt, and not a later one', () => {
    const earlier = new Date('2030-01-01T10:30:00.000Z');
    expect(validityAtFirstLogin({ validFor: 3600, firstLoginAt: null, expiresAt: earlier }, at)?.expiresAt).toEqual(
      earlier,
    );
    const later = new Date('2030-01-02T00:00:00.000Z');
    expect(validityAtFirstLogin({ validFor: 3600, firstLoginAt: null, expiresAt: later }, at)?.expiresAt).toEqual(
      new Date('2030-01-01T11:00:00.000Z'),
    );
  });

  it('starts nothing without validFor or after the first login', () => {
    expect(validityAtFirstLogin({ validFor: null, firstLoginAt: null, expiresAt: null }, at)).toBeNull();
    expect(validityAtFirstLogin({ validFor: 3600, firstLoginAt: at, expiresAt: null }, at)).toBeNull();
  });
});
