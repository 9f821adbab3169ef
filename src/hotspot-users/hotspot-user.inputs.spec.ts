import { toCreateInput, toListQuery, toUpdateInput } from './hotspot-user.inputs.js';
import { NO_USER_TEXT } from './user-text-fields.js';

describe('hotspot user inputs', () => {
  it('parses a create body once: date, MAC address, venue ids, defaults', () => {
    expect(
      toCreateInput({
        name: 'G',
        loginMethod: 'username_password',
        username: 'room-1',
        password: 'secret',
        venueIds: ['b', 'a', 'b'],
        macAddress: 'aabb.ccdd.eeff',
        expiresAt: '2030-01-31T15:00:00+03:00',
      }),
    ).toEqual({
      name: 'G',
      loginMethod: 'username_password',
      venueIds: ['b', 'a'],
      username: 'room-1',
      password: 'secret',
      ...NO_USER_TEXT,
      macAddress: 'AA:BB:CC:DD:EE:FF',
      expiresAt: new Date('2030-01-31T12:00:00.000Z'),
      validFor: null,
      planId: null,
      metadata: {},
    });
  });

  it('keeps only the fields a PUT sent; "" and null both clear the username', () => {
    expect(toUpdateInput({})).toEqual({});
    expect(toUpdateInput({ macAddress: 'aabb.ccdd.ee11' })).toEqual({ macAddress: 'AA:BB:CC:DD:EE:11' });
    expect(toUpdateInput({ macAddress: null })).toEqual({ macAddress: null });
    expect(toUpdateInput({ username: '' })).toEqual({ username: null });
    expect(toUpdateInput({ username: null, expiresAt: null, email: null })).toEqual({
      username: null,
      expiresAt: null,
      email: null,
    });
    expect(toUpdateInput({ venueIds: ['a', 'a'], expiresAt: '2030-01-01T00:00Z' })).toEqual({
      venueIds: ['a'],
      expiresAt: new Date('2030-01-01T00:00:00.000Z'),
    });
  });

  it('turns the list query into numbers and a normalised MAC address', () => {
    expect(toListQuery({ venueId: 'v' })).toEqual({
      venueId: 'v',
      status: undefined,
      macAddress: null,
      search: null,
      batchId: null,
      excludeBatches: false,
      page: 1,
      limit: 20,
    });
    expect(toListQuery({ venueId: 'v', batchId: 'b1' }).batchId).toBe('b1');
    expect(toListQuery({ venueId: 'v', batchAccounts: 'exclude' }).excludeBatches).toBe(true);
    expect(toListQuery({ venueId: 'v', batchAccounts: 'include' }).excludeBatches).toBe(false);
    expect(toListQuery({ macAddress: 'aa-bb-cc-dd-ee-ff', page: '3', limit: '5' })).toMatchObject({
      macAddress: 'AA:BB:CC:DD:EE:FF',
      page: 3,
      limit: 5,
    });
  });

  it('refuses a value the DTO should have refused: a programming error, not bad input', () => {
    expect(() => toUpdateInput({ expiresAt: 'tomorrow' })).toThrow('unvalidated input');
  });
});
