import { getMetadataArgsStorage } from 'typeorm';
import { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import {
  NO_USER_TEXT,
  sentUserText,
  updatedUserText,
  USER_TEXT_FIELDS,
  userTextColumn,
  userTextOf,
} from './user-text-fields.js';

describe('the user text fields', () => {
  it('are each a nullable column of hotspot_users named as the field in snake case', () => {
    const columns = getMetadataArgsStorage().columns.filter((column) => column.target === HotspotUserEntity);
    for (const field of USER_TEXT_FIELDS) {
      const column = columns.find((candidate) => candidate.propertyName === field);
      expect({ field, name: column?.options.name ?? field, nullable: column?.options.nullable }).toEqual({
        field,
        name: userTextColumn(field),
        nullable: true,
      });
    }
  });

  it('names a column in snake case', () => {
    expect(userTextColumn('room')).toBe('room');
    expect(userTextColumn('roomNumber' as never)).toBe('room_number');
  });

  it('reads each field of a source, null for those it leaves out, and nothing else', () => {
    expect(userTextOf({ email: 'a@example.com', name: 'not a text field' } as never)).toEqual({
      ...NO_USER_TEXT,
      email: 'a@example.com',
    });
    expect(userTextOf({})).toEqual(NO_USER_TEXT);
    expect(Object.keys(NO_USER_TEXT).sort()).toEqual([...USER_TEXT_FIELDS].sort());
  });

  it('keeps of a PUT only the fields it sent, null (clear) included', () => {
    expect(sentUserText({ phone: null, room: '1204' })).toEqual({ phone: null, room: '1204' });
    expect(sentUserText({})).toEqual({});
  });

  it('updates each field the PUT sent and keeps the others', () => {
    const current = { ...NO_USER_TEXT, email: 'a@example.com', room: '101' };
    expect(updatedUserText(current, { room: null, phone: '+905321112233' })).toEqual({
      ...NO_USER_TEXT,
      email: 'a@example.com',
      phone: '+905321112233',
      room: null,
    });
    expect(updatedUserText(current, {})).toEqual(current);
  });
});
