import type { HotspotUserDto } from '../../hotspot-users/dto/hotspot-user.response.js';
import { usersCsvFilename, usersCsvHeader, usersCsvLines, usersExportUrl } from './users-export.rules.js';

const user = (fields: Partial<HotspotUserDto>): HotspotUserDto => ({
  _id: 'u1',
  name: 'Ayşe Yılmaz',
  username: 'ayse',
  email: null,
  phone: null,
  room: null,
  macAddress: null,
  loginMethod: 'username_password',
  venueIds: ['hotel'],
  status: 'active',
  expiresAt: null,
  validFor: null,
  firstLoginAt: null,
  devices: [],
  metadata: {},
  createdAt: '2030-01-01T08:00:00.000Z',
  updatedAt: '2030-01-01T08:00:00.000Z',
  batchId: null,
  planId: null,
  ...fields,
});

describe('users export CSV', () => {
  it('has one header line naming the columns', () => {
    expect(usersCsvHeader()).toBe(
      'username,name,email,phone,room,macAddress,status,loginMethod,expiresAt,validForHours,createdAt,batch,venues\r\n',
    );
  });

  it('writes a user a line, times in UTC as the API gives them, empty for null', () => {
    expect(
      usersCsvLines([
        user({
          email: 'a@example.com',
          phone: '+905321112233',
          room: '1204',
          expiresAt: '2030-01-02T09:00:00.000Z',
          batchId: 'b1',
          venueIds: ['hotel', 'spa'],
        }),
        user({ username: null, loginMethod: 'guest', validFor: 86_400, name: 'Guest, of "7"' }),
      ]),
    ).toBe(
      // A phone's leading + is a formula start too: written '+90…, a spreadsheet shows it as text.
      "ayse,Ayşe Yılmaz,a@example.com,'+905321112233,1204,,active,username_password,2030-01-02T09:00:00.000Z,," +
        '2030-01-01T08:00:00.000Z,b1,hotel spa\r\n' +
        ',"Guest, of ""7""",,,,,active,guest,,24,2030-01-01T08:00:00.000Z,,hotel\r\n',
    );
  });

  it('neutralises a formula a guest typed into any text field', () => {
    const line = usersCsvLines([user({ name: '=HYPERLINK("http://evil")', room: '+1', email: '@x', username: '-2' })]);
    expect(line).toContain(`'-2,"'=HYPERLINK(""http://evil"")"`);
    expect(line).toContain(`,'@x,`);
    expect(line).toContain(`,'+1,`);
  });

  it('names the file after the venue and the day, safely', () => {
    expect(usersCsvFilename('grand:lobby', new Date('2030-01-02T23:00:00Z'))).toBe('users-grand_lobby-2030-01-02.csv');
    expect(usersExportUrl('a b')).toBe('/admin/users/export.csv?venueId=a+b');
  });
});
