import type { HotspotUserDto } from '../../hotspot-users/dto/hotspot-user.response.js';
import {
  createBody,
  createdUrl,
  formOf,
  apiFieldProblem,
  hidesVouchers,
  mergedProblems,
  listFilters,
  listUrl,
  pickedVenueIds,
  slipUrl,
  rowMatch,
  stayChoiceOf,
  unconfirmedVenues,
  venuePicker,
  stayEnd,
  updateBody,
  userFormInputs,
  planChoices,
} from './users.rules.js';
import { searchPrefixes } from '../../hotspot-users/user-search.rules.js';
import { instantAsWallDateTime, wallDateTime } from '../../web/zoned-time.js';

const user = {
  _id: 'u1',
  name: 'Ayşe',
  username: 'ayse',
  email: null,
  phone: '+90 532',
  room: null,
  macAddress: null,
  loginMethod: 'username_password',
  venueIds: ['a', 'b'],
  planId: null,
  expiresAt: '2030-06-01T09:00:00.000Z',
  metadata: { room: '12' },
} as unknown as HotspotUserDto;

describe('users screen rules', () => {
  it('reads the list query, dropping what cannot be used', () => {
    expect(listFilters({ venueId: ' hot ', q: ' +90 5 ', status: 'blocked', page: '3' })).toEqual({
      venueId: 'hot',
      q: '+90 5',
      status: 'blocked',
      page: 3,
      vouchers: false,
      problems: [],
    });
    expect(listFilters({ venueId: 'hot', q: '', status: '', page: '', vouchers: 'shown' }).vouchers).toBe(true);
    expect(listFilters({ venueId: 'hot', q: '', status: '', page: '', vouchers: 'yes' }).vouchers).toBe(false);
    expect(listFilters({ venueId: '../x', q: 'a'.repeat(65), status: 'odd', page: '-1' })).toEqual({
      venueId: null,
      q: '',
      status: undefined,
      page: 1,
      vouchers: false,
      problems: ['users.problem.venueId', 'users.problem.q'],
    });
  });

  it('hides the vouchers unless asked, and never from a search', () => {
    expect(hidesVouchers({ q: '', vouchers: false })).toBe(true);
    expect(hidesVouchers({ q: '', vouchers: true })).toBe(false);
    expect(hidesVouchers({ q: '1204', vouchers: false })).toBe(false);
  });

  it('builds list URLs', () => {
    expect(listUrl({ venueId: 'hot', q: 'a b', status: '', page: 2 })).toBe('/admin/users?venueId=hot&q=a+b&page=2');
    expect(listUrl({ venueId: null })).toBe('/admin/users');
    expect(listUrl({ venueId: 'hot', vouchers: true, page: 2 })).toBe('/admin/users?venueId=hot&vouchers=shown&page=2');
  });

  it("builds the address of a created user's result page, the venue kept", () => {
    expect(createdUrl('u1', 'r1', 'lobby a')).toBe('/admin/users/u1/created/r1?venueId=lobby+a');
    expect(createdUrl('u/1', 'r1', null)).toBe('/admin/users/u%2F1/created/r1');
  });

  it('converts local times in the operator zone', () => {
    expect(wallDateTime('2030-01-31T18:00', 'Europe/Istanbul')?.toISOString()).toBe('2030-01-31T15:00:00.000Z');
    expect(wallDateTime('2030-07-01T12:00', 'Europe/Berlin')?.toISOString()).toBe('2030-07-01T10:00:00.000Z');
    expect(wallDateTime('2030-02-30T12:00', null)).toBeNull();
    expect(wallDateTime('tomorrow', null)).toBeNull();
    expect(instantAsWallDateTime('2030-01-31T15:00:00.000Z', 'Europe/Istanbul')).toBe('2030-01-31T18:00');
  });

  it('builds a create body, leaving out empty fields, and names what it cannot read', () => {
    const form = { ...formOf(user, null), password: '', email: '', metadata: '[1]', expiresAt: 'x' };
    expect(createBody(form, null)).toEqual({
      body: {
        name: 'Ayşe',
        loginMethod: 'username_password',
        venueIds: ['a', 'b'],
        username: 'ayse',
        phone: '+90 532',
      },
      problems: [
        { field: 'expiresAt', key: 'users.problem.expiresAt' },
        { field: 'metadata', key: 'users.problem.metadata' },
      ],
    });
  });

  it('sends only what the edit changed, emptied fields as null', () => {
    expect(updateBody(formOf(user, 'Europe/Istanbul'), user, 'Europe/Istanbul')).toEqual({ body: {}, problems: [] });
    const form = { ...formOf(user, null), phone: '', room: ' 1204 ', venueIds: 'a', name: 'Ayşe Y', expiresAt: '' };
    expect(updateBody(form, user, null).body).toEqual({
      name: 'Ayşe Y',
      phone: null,
      room: '1204',
      venueIds: ['a'],
      expiresAt: null,
    });
  });

  it('sends a changed MAC address as typed (the API normalises it), an emptied one as null', () => {
    const withMac = { ...user, macAddress: 'AA:BB:CC:DD:EE:FF' };
    expect(updateBody({ ...formOf(withMac, null), macAddress: ' aa-bb-cc-dd-ee-01 ' }, withMac, null).body).toEqual({
      macAddress: 'aa-bb-cc-dd-ee-01',
    });
    expect(updateBody({ ...formOf(withMac, null), macAddress: '' }, withMac, null).body).toEqual({ macAddress: null });
    expect(updateBody(formOf(withMac, null), withMac, null).body).toEqual({});
  });
});

describe('the plan of the user form', () => {
  it('sends the plan picked; on edit, only a change of it, none as null', () => {
    const form = { ...formOf(user, null), planId: 'p1' };
    expect(createBody(form, null).body.planId).toBe('p1');
    expect(createBody({ ...form, planId: '' }, null).body).not.toHaveProperty('planId');
    expect(updateBody(form, user, null).body).toEqual({ planId: 'p1' });
    const onPlan = { ...user, planId: 'p1' } as HotspotUserDto;
    expect(formOf(onPlan, null).planId).toBe('p1');
    expect(updateBody(formOf(onPlan, null), onPlan, null).body).toEqual({});
    expect(updateBody({ ...formOf(onPlan, null), planId: '' }, onPlan, null).body).toEqual({ planId: null });
  });

  it("offers the plans offered in every venue of the form, and the user's own whatever its venues", () => {
    const plans = [
      { _id: 'both', name: 'Both', venueIds: ['a', 'b'] },
      { _id: 'onlyA', name: 'Only A', venueIds: ['a'] },
    ];
    expect(planChoices(plans, ['a', 'b'], '').map((choice) => choice.id)).toEqual(['both']);
    expect(planChoices(plans, ['a', 'b'], 'onlyA')).toEqual([
      { id: 'both', name: 'Both', selected: false },
      { id: 'onlyA', name: 'Only A', selected: true },
    ]);
    expect(planChoices(plans, [], '').length).toBe(2);
  });

  it("words the API's 422 of a plan not offered in a venue beside the venues", () => {
    expect(apiFieldProblem(422, 'venueIds', 'plan p is not offered in venue c')).toEqual({
      field: 'venueIds',
      key: 'users.problem.planNotOffered',
      text: null,
    });
    expect(apiFieldProblem(422, 'planId', 'plan p does not exist')).toEqual({
      field: 'planId',
      key: 'users.invalid.planId',
      text: null,
    });
  });
});

describe('userFormInputs', () => {
  const names = (loginMethod: string, editing: boolean) => userFormInputs(loginMethod, editing).map((i) => i.name);

  it('creating a username/password user: every input but none the service fills', () => {
    expect(names('username_password', false)).toEqual([
      'name',
      'username',
      'password',
      'email',
      'phone',
      'room',
      'macAddress',
      'venueIds',
      'planId',
      'expiresAt',
      'metadata',
    ]);
    const required = userFormInputs('username_password', false).filter((i) => i.required);
    expect(required.map((i) => i.name)).toEqual(['name', 'username', 'venueIds']);
  });

  it('creating a guest: no username, password or expiry', () => {
    expect(names('guest', false)).toEqual([
      'name',
      'email',
      'phone',
      'room',
      'macAddress',
      'venueIds',
      'planId',
      'metadata',
    ]);
  });

  it('editing: no password; the MAC address can be changed; a guest shows its username', () => {
    expect(names('guest', true)).toEqual([
      'name',
      'username',
      'email',
      'phone',
      'room',
      'macAddress',
      'venueIds',
      'planId',
      'metadata',
    ]);
    expect(names('username_password', true)).toEqual([
      'name',
      'username',
      'email',
      'phone',
      'room',
      'macAddress',
      'venueIds',
      'planId',
      'expiresAt',
      'metadata',
    ]);
  });
});

describe('stayEnd', () => {
  const zone = 'Europe/Istanbul';
  const morning = new Date('2026-11-28T04:00:00.000Z'); // 07:00 in Istanbul
  const afternoon = new Date('2026-11-28T12:00:00.000Z'); // 15:00

  it('until check-out: today at the check-out time while it is ahead, else tomorrow', () => {
    expect(stayEnd('checkOut', morning, zone, '12:00', null)).toEqual(new Date('2026-11-28T09:00:00.000Z'));
    expect(stayEnd('checkOut', afternoon, zone, '11:00', null)).toEqual(new Date('2026-11-29T08:00:00.000Z'));
  });

  it('one more night: the check-out of the day after the expiry still ahead, else after today', () => {
    const expiry = new Date('2026-11-30T09:00:00.000Z');
    expect(stayEnd('extraNight', morning, zone, '12:00', expiry)).toEqual(new Date('2026-12-01T09:00:00.000Z'));
    expect(stayEnd('extraNight', morning, zone, '12:00', null)).toEqual(new Date('2026-11-29T09:00:00.000Z'));
    const past = new Date('2026-11-20T09:00:00.000Z');
    expect(stayEnd('extraNight', afternoon, zone, '12:00', past)).toEqual(new Date('2026-11-29T09:00:00.000Z'));
  });

  it('reads only the choices it offers', () => {
    expect(stayChoiceOf('checkOut')).toBe('checkOut');
    expect(stayChoiceOf('extraNight')).toBe('extraNight');
    expect(stayChoiceOf('forever')).toBeNull();
  });
});

describe('venue picker', () => {
  const registered = new Set(['grand', 'spa']);

  it('offers the venues as checkboxes, those of the form ticked, and keeps the rest as typed', () => {
    expect(venuePicker(['spa', 'typo', 'kept'], ['grand', 'spa'], ['kept'], registered)).toEqual({
      choices: [
        { id: 'grand', checked: false, registered: true },
        { id: 'spa', checked: true, registered: true },
        { id: 'kept', checked: true, registered: false },
      ],
      typed: ['typo'],
    });
  });

  it('reads the ticked venues, then the typed ones, each once', () => {
    expect(pickedVenueIds(['grand', ''], ' spa, grand  typo ')).toEqual(['grand', 'spa', 'typo']);
    expect(pickedVenueIds([], '')).toEqual([]);
  });

  it('asks to confirm only the unregistered venues nobody chose before', () => {
    expect(unconfirmedVenues(['grand', 'typo', 'lobby'], ['lobby'], registered)).toEqual(['typo']);
    expect(unconfirmedVenues(['grand'], [], registered)).toEqual([]);
  });

  it("links a result's slip in the venue the operator came from", () => {
    expect(slipUrl('u 1', 'r1', 'grand')).toBe('/admin/users/u%201/slip/r1?venueId=grand');
    expect(slipUrl('u1', 'r1', null)).toBe('/admin/users/u1/slip/r1');
  });
});

describe('rowMatch', () => {
  const guest = {
    ...user,
    name: 'Ayşe Yılmaz',
    phone: '+905321112233',
    room: '1204',
    devices: [{ macAddress: '02:00:00:00:AB:CD' }],
  } as unknown as HotspotUserDto;

  it("names the field a row was found by, and the field's value", () => {
    expect(rowMatch(searchPrefixes('yilmaz'), guest)).toEqual({ field: 'name', value: 'Ayşe Yılmaz' });
    expect(rowMatch(searchPrefixes('1204'), guest)).toEqual({ field: 'room', value: '1204' });
    expect(rowMatch(searchPrefixes('0532 111 22 33'), guest)).toEqual({ field: 'phone', value: '+905321112233' });
    expect(rowMatch(searchPrefixes('abcd'), guest)).toEqual({ field: 'mac', value: '02:00:00:00:AB:CD' });
  });

  it('says nothing without a search', () => {
    expect(rowMatch(null, guest)).toBeNull();
  });
});

describe("problems in the form's words", () => {
  it('turns a v1 refusal of a field into the form field and its sentence, never the API field name', () => {
    expect(apiFieldProblem(400, 'macAddress', 'macAddress must be a MAC address')).toEqual({
      field: 'macAddress',
      key: 'users.invalid.macAddress',
      text: null,
    });
    expect(apiFieldProblem(400, 'venueIds.2', 'venueIds.2 must be …')).toEqual({
      field: 'venueIds',
      key: 'users.invalid.venueIds',
      text: null,
    });
    expect(apiFieldProblem(409, 'email', 'email already used')).toEqual({
      field: 'email',
      key: 'users.taken.email',
      text: null,
    });
    expect(apiFieldProblem(403, 'venueIds', 'venue x is outside')).toEqual({
      field: 'venueIds',
      key: 'users.problem.venueOutside',
      text: null,
    });
    // A field the form does not have keeps the API's words, in the summary only.
    expect(apiFieldProblem(400, 'validFor', 'validFor must be …')).toEqual({
      field: null,
      key: null,
      text: 'validFor must be …',
    });
  });

  it("merges the form's own problems and the API's, once each, in the form's order", () => {
    const own = [{ field: 'metadata', key: 'users.problem.metadata', text: null }];
    const api = [
      { field: 'email', key: 'users.invalid.email', text: null },
      { field: 'name', key: 'users.invalid.name', text: null },
      { field: 'name', key: 'users.invalid.name', text: null },
      { field: null, key: null, text: 'other' },
    ];
    expect(mergedProblems(own, api).map((p) => p.field)).toEqual([null, 'name', 'email', 'metadata']);
  });
});
