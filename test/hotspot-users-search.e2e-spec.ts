import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { newId } from '../src/common/ids.js';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { initializeDataSource } from '../src/database/migrations.js';
import type { HotspotUserDto } from '../src/hotspot-users/dto/hotspot-user.response.js';
import { HotspotUserVenueEntity } from '../src/hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { HotspotUsersRepository, searchMatches } from '../src/hotspot-users/hotspot-users.repository.js';
import { HotspotUserNameWordEntity } from '../src/hotspot-users/entities/hotspot-user-name-word.entity.js';
import { reversedMac } from '../src/common/search/search-folds.js';
import { LoginAttemptEntity } from '../src/radius/entities/login-attempt.entity.js';
import { searchUsernameOf } from '../src/radius/login-attempt-search.rules.js';
import { DeviceEntity } from '../src/sessions/entities/device.entity.js';
import {
  nameWordRowsOf,
  SEARCHABLE_FIELDS,
  searchKeysOf,
  searchPrefixes,
  type SearchKind,
} from '../src/hotspot-users/user-search.rules.js';
import { api } from './support/api-client.js';
import { validationError } from './support/expected.js';
import { givenGuest, givenUser, startSession, uniqueDevice } from './support/factories.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { describeEachDatabase } from './support/test-app.js';

const ids = (records: Array<{ _id: string }>) => records.map((record) => record._id).sort();

/** After the venue and the key, each search index holds what the list filters and orders by: a range reads it alone. */
const SEARCH_INDEX_TAIL = ['user_status', 'user_created_at', 'user_id'];

/** The key columns of the venue rows as the migrated database has them: name → declared length. */
async function keyColumns(dataSource: DataSource): Promise<Record<string, number>> {
  const rows: Array<{ name: string; length: number | string }> =
    dataSource.options.type === 'better-sqlite3'
      ? await dataSource.query(
          "SELECT name, CAST(substr(type, 9, length(type) - 9) AS INTEGER) AS length FROM pragma_table_info('hotspot_user_venues') WHERE name LIKE 'search!_%' ESCAPE '!' AND type LIKE 'varchar(%)'",
        )
      : await dataSource.query(
          `SELECT column_name AS name, character_maximum_length AS length FROM information_schema.columns
           WHERE table_schema = DATABASE() AND table_name = 'hotspot_user_venues' AND column_name LIKE 'search!_%' ESCAPE '!'
             AND data_type = 'varchar'`,
        );
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.length)]));
}

/** The search indexes of the venue rows as the migrated database has them: name → columns in order. */
async function searchIndexes(dataSource: DataSource): Promise<Record<string, string[]>> {
  const rows: Array<{ name: string; column: string }> =
    dataSource.options.type === 'better-sqlite3'
      ? await dataSource.query(
          `SELECT il.name AS name, ii.name AS "column" FROM pragma_index_list('hotspot_user_venues') il, pragma_index_info(il.name) ii
           WHERE il.name LIKE 'idx!_user!_venues!_search!_%' ESCAPE '!' ORDER BY il.name, ii.seqno`,
        )
      : await dataSource.query(
          `SELECT index_name AS name, column_name AS \`column\` FROM information_schema.statistics
           WHERE table_schema = DATABASE() AND table_name = 'hotspot_user_venues'
             AND index_name LIKE 'idx!_user!_venues!_search!_%' ESCAPE '!' ORDER BY index_name, seq_in_index`,
        );
  const indexes: Record<string, string[]> = {};
  for (const row of rows) (indexes[row.name] ??= []).push(row.column);
  return indexes;
}

/** `a`, `a or b`, `a, b or c`; with `and`: `a, b and c`. */
const listed = (words: readonly string[], last = 'or') =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
const fieldsOfKind = (kind: SearchKind) =>
  SEARCHABLE_FIELDS.filter((searchable) => searchable.kind === kind).map(({ field }) => field);
const SEARCH_KINDS = [...new Set(SEARCHABLE_FIELDS.map(({ kind }) => kind))];
/** What `q`'s help in docs/api.md and in the OpenAPI document must say, naming every searchable field. */
const SEARCHED = `whose ${listed([...new Set(SEARCHABLE_FIELDS.map(({ field }) => field)), 'MAC'])} (`;
const KIND_WORDING: Record<SearchKind, { docs: (fields: string[]) => string; openApi: (fields: string[]) => string }> =
  {
    text: {
      docs: (fields) => `What is compared: ${listed(fields, 'and')} with case and accents folded`,
      openApi: (fields) => `${listed(fields, 'and')} ignore`,
    },
    phone: {
      docs: (fields) => `the ${listed(fields)} as its digits alone`,
      openApi: (fields) => `a ${listed(fields)} prefix ignores spaces`,
    },
    phoneSuffix: {
      docs: (fields) => `the ${listed(fields)} is also found by its end: its last digits or its national form`,
      openApi: (fields) => `a ${listed(fields)} is also found by its last 4 or more digits or its national form`,
    },
  };

describe("q's help names every searchable field", () => {
  it('in docs/api.md', () => {
    const lines = readFileSync('docs/api.md', 'utf8').split('\n');
    const start = lines.findIndex((line) => line.startsWith('- **Search (`q`'));
    expect(start).toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((line, index) => index > start && !line.startsWith('  '));
    const paragraph = lines.slice(start, end).join(' ').replace(/\s+/g, ' ');
    expect(paragraph).toContain(SEARCHED);
    for (const kind of SEARCH_KINDS) expect(paragraph).toContain(KIND_WORDING[kind].docs(fieldsOfKind(kind)));
  });
});

/**
 * A search key's migration fills the venue rows that were there before it (as the service folds it:
 * migrations/shared/user-search-keys.ts): from a database holding a user, the migrations are undone
 * down to before the first declared key column, then run again.
 */
describe.each(databaseKinds())('the migrations of the search keys [%s]', (kind) => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const parsed = parseDatabaseUrl(database.url);
    if ('error' in parsed) throw new Error(parsed.error);
    dataSource = await initializeDataSource({
      ...buildDataSourceOptions(parsed.value, { migrationsRun: true }),
      logging: false,
    });
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('fill every declared key of the rows already there, as the service would write it', async () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    const user = Object.assign(new HotspotUserEntity(), {
      id: newId(),
      name: '  Ayşe   YILMAZ Yıldız ',
      username: 'Ayse.Y',
      email: 'AYSE.Yilmaz@Example.com',
      phone: '+90 (532) 111-22-33',
      // UserRoom, reverted and run again with the others, keeps no room: a room is not filled.
      room: null,
      macAddress: '0A:1B:2C:3D:4E:5F',
      loginMethod: 'username_password',
      status: 'active',
      passwordHash: null,
      expiresAt: null,
      validFor: null,
      firstLoginAt: null,
      metadata: {},
      createdAt: now,
      updatedAt: now,
      batchId: null,
      planId: null,
      version: 1,
    } satisfies HotspotUserEntity);
    await dataSource.manager.insert(HotspotUserEntity, user);
    await dataSource.manager.insert(HotspotUserVenueEntity, {
      userId: user.id,
      venueId: 'migrated-venue',
      position: 0,
      userStatus: 'active',
      userCreatedAt: now,
    });
    const device = { id: newId(), userId: user.id, macAddress: '02:00:00:00:12:34', name: null, status: 'active' };
    await dataSource.manager.insert(DeviceEntity, { ...device, firstSeenAt: now, lastSeenAt: now } as DeviceEntity);
    const attemptId = newId();
    await dataSource.manager.insert(LoginAttemptEntity, {
      ...{ id: attemptId, createdAt: now, outcome: 'reject', nasClientId: null, venueId: 'migrated-venue' },
      ...{ userId: null, username: 'Ayşe.Y', searchUsername: null, macAddress: null, reason: null },
    } satisfies LoginAttemptEntity);
    const declared: string[] = SEARCHABLE_FIELDS.map(({ column }) => column);
    let undone = 0;
    while (Object.keys(await keyColumns(dataSource)).some((column) => declared.includes(column))) {
      await dataSource.undoLastMigration({ transaction: 'each' });
      undone += 1;
    }
    expect(undone).toBeGreaterThan(0);
    expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(undone);

    const stored = await dataSource.manager.findOneByOrFail(HotspotUserEntity, { id: user.id });
    const row = await dataSource.manager.findOneByOrFail(HotspotUserVenueEntity, { userId: user.id });
    const keys: Record<string, string | null> = searchKeysOf(stored);
    for (const { key } of SEARCHABLE_FIELDS) expect({ [key]: row[key] }).toEqual({ [key]: keys[key] });
    // The name's words, the MACs backwards and the attempt's folded username, as the service writes them.
    const words = await dataSource.manager.findBy(HotspotUserNameWordEntity, { userId: user.id });
    const wordRow = ({ word, venueId, userStatus, sharesInitial }: HotspotUserNameWordEntity) => ({
      ...{ word, venueId, userStatus, sharesInitial },
    });
    const byWord = (a: { word: string }, b: { word: string }) => a.word.localeCompare(b.word);
    expect(words.map(wordRow).sort(byWord)).toEqual(
      nameWordRowsOf(stored, ['migrated-venue']).map(wordRow).sort(byWord),
    );
    // Two words starting alike, so the migration that marks them has one to mark.
    expect(words.map(({ sharesInitial }) => sharesInitial)).toEqual([true, true]);
    expect(words.map(({ userCreatedAt }) => userCreatedAt)).toEqual([now, now]);
    const [macs] = await dataSource.query<Array<{ own: string; device: string }>>(
      'SELECT u.mac_reversed AS own, d.mac_reversed AS device FROM hotspot_users u JOIN devices d ON d.user_id = u.id WHERE u.id = ?',
      [user.id],
    );
    expect(macs).toEqual({ own: reversedMac(user.macAddress), device: reversedMac(device.macAddress) });
    const attempt = await dataSource.manager.findOneByOrFail(LoginAttemptEntity, { id: attemptId });
    expect(attempt.searchUsername).toBe(searchUsernameOf('Ayşe.Y'));
    // Not blind: the fields this user had before are found (a field whose user column comes with its
    // key has nothing to fill: null on both sides).
    expect(Object.values(keys).some((key) => key !== null)).toBe(true);
  });
});

describeEachDatabase('GET /api/v1/hotspot-users?q= (search)', (current) => {
  const VENUE = 'search-venue';
  const OTHER = 'search-other';
  const list = (query: string, token?: string) => api(current()).users.list(query, { token });
  const found = async (q: string, extra = '') => {
    const response = await list(`venueId=${VENUE}&q=${encodeURIComponent(q)}${extra}`).expect(200);
    return response.body as { data: HotspotUserDto[]; pagination: { total: number } };
  };
  let ayse: HotspotUserDto;
  let mehmet: HotspotUserDto;
  let percent: HotspotUserDto;
  let otherVenue: HotspotUserDto;
  let deviceMac: string;

  beforeAll(async () => {
    ayse = await givenUser(current(), {
      name: 'Ayşe Yılmaz',
      username: 'AyseY.Room1204',
      email: 'Ayse.Yilmaz@Example.com',
      phone: '+90 532 111-22-33',
      macAddress: '0a:1b:2c:3d:4e:5f',
      venueIds: [VENUE],
    });
    mehmet = await givenGuest(current(), {
      name: 'Mehmet Öztürk',
      phone: '0212 444 55 66',
      room: 'B-1204',
      venueIds: [VENUE],
    });
    percent = await givenGuest(current(), { name: '100% Guest_x', venueIds: [VENUE] });
    // The same name, phone and email in another venue: never found from VENUE.
    otherVenue = await givenGuest(current(), {
      name: 'Ayşe Yılmaz',
      email: 'ayse.yilmaz@example.com',
      phone: '+90 532 111-22-33',
      venueIds: [OTHER],
    });
    deviceMac = uniqueDevice().macAddress;
    await startSession(current(), { userId: mehmet._id, venueId: VENUE, macAddress: deviceMac });
  });

  it.each([
    ['name, case and accents ignored', 'ayse yil'],
    ['name, Turkish capitals', 'AYŞE'],
    ['username', 'aysey.ROOM'],
    ['email', 'AYSE.yilmaz@ex'],
    ['phone with +, spaces and dashes', '+90 532-111'],
    ['phone digits alone', '90532111'],
    ['own MAC in another form', '0A1B-2C'],
  ])('finds by a prefix of the %s', async (_what, q) => {
    const { data, pagination } = await found(q);
    expect(ids(data)).toEqual([ayse._id]);
    expect(pagination.total).toBe(1);
  });

  it('finds by a prefix of the room, case ignored', async () => {
    expect(ids((await found('b-12')).data)).toEqual([mehmet._id]);
    expect(ids((await found('B-1204')).data)).toEqual([mehmet._id]);
  });

  it("finds by a prefix of a device's MAC", async () => {
    const { data } = await found(deviceMac.slice(0, 11).toLowerCase());
    expect(ids(data)).toEqual([mehmet._id]);
  });

  it.each([
    ['a surname alone', 'Yılmaz'],
    ['a surname without its accents', 'yilmaz'],
    ['a surname in capitals', 'YILMAZ'],
    ['the start of a surname', 'yıl'],
    ['a national phone', '0532 111 22 33'],
    ['a national phone as digits', '05321112233'],
    ['a phone without its country code', '5321112233'],
    ['the last digits of a phone', '2233'],
    ['the end of the own MAC', '4e:5f'],
    ['the end of the own MAC without separators', '3D4E5F'],
  ])('finds by %s', async (_what, q) => {
    const { data, pagination } = await found(q);
    expect(ids(data)).toEqual([ayse._id]);
    expect(pagination.total).toBe(1);
  });

  it("finds by the end of a device's MAC", async () => {
    const { data } = await found(deviceMac.slice(-5));
    expect(ids(data)).toEqual([mehmet._id]);
  });

  it('reads no end of a phone or MAC shorter than 4 digits', async () => {
    expect((await found('233')).data).toEqual([]);
    expect((await found('e5f')).data).toEqual([]);
  });

  it("follows a change of the name and the phone, the user's status and venues, and its deletion", async () => {
    const changing = await givenUser(current(), {
      name: 'Elif Kaya',
      username: 'elif.k',
      phone: '+90 533 999 88 77',
      macAddress: '02:aa:bb:cc:dd:ee',
      venueIds: [VENUE],
    });
    expect(ids((await found('kaya')).data)).toEqual([changing._id]);
    await api(current()).users.update(changing._id, { name: 'Elif Demir', phone: '+90 533 999 66 55' }).expect(200);
    expect((await found('kaya')).data).toEqual([]);
    expect((await found('8877')).data).toEqual([]);
    expect(ids((await found('ccddee')).data)).toEqual([changing._id]);
    expect(ids((await found('demir')).data)).toEqual([changing._id]);
    expect(ids((await found('6655')).data)).toEqual([changing._id]);
    await api(current()).users.update(changing._id, { status: 'blocked' }).expect(200);
    expect(ids((await found('demir', '&status=blocked')).data)).toEqual([changing._id]);
    expect((await found('demir', '&status=active')).data).toEqual([]);
    await api(current())
      .users.update(changing._id, { venueIds: [OTHER] })
      .expect(200);
    expect((await found('demir')).data).toEqual([]);
    const other = await list(`venueId=${OTHER}&q=demir`).expect(200);
    expect(ids(other.body.data)).toEqual([changing._id]);
    await api(current()).users.remove(changing._id).expect(200);
    const [{ n }] = await current().dataSource.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM hotspot_user_name_words WHERE user_id = ?',
      [changing._id],
    );
    expect(Number(n)).toBe(0);
  });

  it("keeps a changed MAC's end searchable (the repository writes its key with it)", async () => {
    const user = await givenUser(current(), { name: 'Mac Change', macAddress: '02:11:22:33:44:55', venueIds: [VENUE] });
    expect(ids((await found('4455')).data)).toEqual([user._id]);
    const { dataSource, app } = current();
    await app.get(HotspotUsersRepository).update(dataSource.manager, user._id, { macAddress: '02:11:22:33:66:77' });
    expect((await found('4455')).data).toEqual([]);
    expect(ids((await found('66:77')).data)).toEqual([user._id]);
    await app.get(HotspotUsersRepository).update(dataSource.manager, user._id, { macAddress: null });
    expect((await found('66:77')).data).toEqual([]);
    await api(current()).users.remove(user._id).expect(200);
  });

  it('matches only the start of a word, and never a user of another venue', async () => {
    expect((await found('ilmaz')).data).toEqual([]);
    expect((await found('zturk')).data).toEqual([]);
    const other = await list(`venueId=${OTHER}&q=ayse`).expect(200);
    expect(ids(other.body.data)).toEqual([otherVenue._id]);
    expect(ids((await found('+90 532')).data)).toEqual([ayse._id]);
  });

  it('takes %, _ and \\ literally', async () => {
    expect(ids((await found('100%')).data)).toEqual([percent._id]);
    expect((await found('1%')).data).toEqual([]);
    expect(ids((await found('100% guest_')).data)).toEqual([percent._id]);
    expect((await found('100% guest%')).data).toEqual([]);
    expect((await found('_')).data).toEqual([]);
    expect((await found('%')).data).toEqual([]);
    expect((await found('\\')).data).toEqual([]);
  });

  it('combines with status and pages', async () => {
    await api(current()).users.update(mehmet._id, { status: 'blocked' }).expect(200);
    expect(ids((await found('m', '&status=blocked')).data)).toEqual([mehmet._id]);
    expect((await found('m', '&status=active')).data).toEqual([]);
    const page = await found('a', '&limit=1&page=2');
    expect(page.data).toEqual([]);
    expect(page.pagination.total).toBe(1);
  });

  it('finds an expired user too', async () => {
    const expired = await givenGuest(current(), { name: 'Zeynep Expired', venueIds: [VENUE] });
    await api(current()).users.expire(expired._id).expect(200);
    expect(ids((await found('zeynep', '&status=expired')).data)).toEqual([expired._id]);
  });

  it('keeps venue scope: a token of another venue is refused', async () => {
    const token = await current().createToken({ permissions: ['read'], venueIds: [OTHER] });
    await list(`venueId=${VENUE}&q=ayse`, token).expect(403);
    const own = await list(`q=ayse`, token).expect(200);
    expect(ids(own.body.data)).toEqual([otherVenue._id]);
  });

  it.each([
    ['empty', 'q='],
    ['too long', `q=${'a'.repeat(65)}`],
    ['repeated', 'q=a&q=b'],
    ['a control character', 'q=a%01'],
  ])('refuses q %s: 400 naming q', async (_what, query) => {
    const response = await list(`venueId=${VENUE}&${query}`).expect(400);
    expect(response.body).toEqual(validationError('q'));
  });

  it('has each searchable key as a column of the venue rows, with its (venue, key) index, and no other', async () => {
    const { dataSource } = current();
    const metadata = dataSource.getMetadata(HotspotUserVenueEntity);
    const declared = SEARCHABLE_FIELDS.map(({ key, column, length, index }) => ({
      key,
      column,
      length: String(length),
      nullable: true,
      index: ['venue_id', column, ...SEARCH_INDEX_TAIL],
      indexName: index,
    }));
    // The entity (TypeORM's metadata)…
    expect(
      metadata.columns
        .filter((column) => column.databaseName.startsWith('search_'))
        .map((column) => {
          const index = metadata.indices.find(
            ({ columns }) => columns.length > 1 && columns[1].databaseName === column.databaseName,
          );
          return {
            key: column.propertyName,
            column: column.databaseName,
            length: column.length,
            nullable: column.isNullable,
            index: index?.columns.map(({ databaseName }) => databaseName),
            indexName: index?.name,
          };
        }),
    ).toEqual(declared);
    // …and the database its migrations made.
    expect(await keyColumns(dataSource)).toEqual(
      Object.fromEntries(SEARCHABLE_FIELDS.map(({ column, length }) => [column, length])),
    );
    expect(await searchIndexes(dataSource)).toEqual(
      Object.fromEntries(
        SEARCHABLE_FIELDS.map(({ column, index }) => [index, ['venue_id', column, ...SEARCH_INDEX_TAIL]]),
      ),
    );
  });

  it("documents q's help in the OpenAPI document naming every searchable field", async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body as {
      paths: Record<string, { get: { parameters: Array<{ name: string; description?: string }> } }>;
    };
    const q = document.paths['/api/v1/hotspot-users'].get.parameters.find(({ name }) => name === 'q');
    expect(q?.description).toContain(SEARCHED);
    for (const kind of SEARCH_KINDS) {
      expect(q?.description?.toLowerCase()).toContain(KIND_WORDING[kind].openApi(fieldsOfKind(kind)).toLowerCase());
    }
  });

  it('reads each key through its index', async () => {
    const testApp = current();
    // Enough rows in the venue that a scan would cost more than the ranges.
    for (let i = 0; i < 60; i += 1) {
      const filler = await givenGuest(testApp, { name: `Filler ${i}`, venueIds: [VENUE] });
      await startSession(testApp, { userId: filler._id, venueId: VENUE, macAddress: uniqueDevice().macAddress });
    }
    // A prefix of every kind of key, of the name's words and of a MAC's start and end.
    const search = searchPrefixes('90532');
    for (const { kind } of SEARCHABLE_FIELDS) expect(search[kind]).not.toBeNull();
    for (const other of ['word', 'mac', 'macSuffix'] as const) expect(search[other]).not.toBeNull();
    const { sql, params } = searchMatches({ venueId: VENUE, macAddress: null, search });
    if (testApp.kind === 'sqlite') {
      await testApp.dataSource.query('ANALYZE');
      const plan: Array<{ detail: string }> = await testApp.dataSource.query(`EXPLAIN QUERY PLAN ${sql!}`, params);
      const details = plan.map((row) => row.detail).join('\n');
      for (const { index, column } of SEARCHABLE_FIELDS) {
        expect(details).toMatch(new RegExp(`USING COVERING INDEX ${index} \\(venue_id=\\? AND ${column}>`));
      }
      expect(details).toMatch(/USING COVERING INDEX idx_user_name_words_search \(venue_id=\? AND word>/);
      expect(details).toMatch(/USING (COVERING )?INDEX idx_hotspot_users_mac_address \(mac_address>/);
      expect(details).toMatch(/USING (COVERING )?INDEX idx_devices_mac_address \(mac_address>/);
      expect(details).toMatch(/USING (COVERING )?INDEX idx_hotspot_users_mac_reversed \(mac_reversed>/);
      expect(details).toMatch(/USING (COVERING )?INDEX idx_devices_mac_reversed \(mac_reversed>/);
      expect(details).not.toMatch(/SCAN (uv|hotspot_user_venues)\b(?! USING)/);
    } else {
      await testApp.dataSource.query(
        'ANALYZE TABLE hotspot_user_venues, hotspot_user_name_words, hotspot_users, devices',
      );
      const plan: Array<{ table: string; key: string | null; type: string }> = await testApp.dataSource.query(
        `EXPLAIN ${sql!}`,
        params,
      );
      const keys = plan.map((row) => row.key);
      for (const { index } of SEARCHABLE_FIELDS) expect(keys).toContain(index);
      for (const index of [
        'idx_user_name_words_search',
        'idx_hotspot_users_mac_reversed',
        'idx_devices_mac_reversed',
      ]) {
        expect(keys).toContain(index);
      }
      expect(plan.filter((row) => row.type === 'ALL' && row.table !== null && !row.table.startsWith('<'))).toEqual([]);
    }
  });
});

describeEachDatabase('GET /api/v1/hotspot-users?q= by a common name word', (current) => {
  const VENUE = 'word-venue';
  type Page = { data: HotspotUserDto[]; pagination: { total: number } };
  const found = async (q: string, extra = '') =>
    (
      await api(current())
        .users.list(`venueId=${VENUE}&q=${encodeURIComponent(q)}${extra}`)
        .expect(200)
    ).body as Page;
  const inOrder = (records: Array<{ _id: string }>) => records.map((record) => record._id);
  /** The venue's list without `q`, newest first: the order every search answers in. */
  const newestFirst = async (wanted: readonly string[], extra = '') => {
    const all = (await api(current()).users.list(`venueId=${VENUE}&limit=100${extra}`).expect(200)).body as Page;
    return inOrder(all.data).filter((id) => wanted.includes(id));
  };
  /** Every page of `q` at `limit`, one after the other. */
  const paged = async (q: string, limit: number, extra = '') => {
    const pages: Page[] = [];
    for (let page = 1; pages.length === 0 || pages[pages.length - 1].data.length === limit; page += 1) {
      pages.push(await found(q, `&limit=${limit}&page=${page}${extra}`));
    }
    return pages;
  };
  const kayas: HotspotUserDto[] = [];
  let twice: HotspotUserDto;

  beforeAll(async () => {
    // 31 of the venue's 41 users have a word starting `kaya`: page 1 of 5 is read by walking the venue's
    // words newest first (walksNewestFirst), the later pages and a page of 100 by sorting the matches.
    for (let i = 0; i < 30; i += 1) {
      kayas.push(await givenGuest(current(), { name: `Guest ${i} Kaya`, venueIds: [VENUE] }));
      if (i % 3 === 0) await givenGuest(current(), { name: `Guest ${i} Demir`, venueIds: [VENUE] });
    }
    // Two of its words start with `kaya`: one user all the same.
    twice = await givenGuest(current(), { name: 'Ali Kaya Kayalı', venueIds: [VENUE] });
  });

  it('counts a user two of whose words match once, and pages newest first alike walked or sorted', async () => {
    const expected = await newestFirst([...kayas, twice].map(({ _id }) => _id));
    expect(expected).toHaveLength(31);
    const whole = await found('kaya', '&limit=100');
    expect(whole.pagination.total).toBe(31);
    expect(inOrder(whole.data)).toEqual(expected);
    const pages = await paged('kaya', 5);
    expect(pages.map((page) => page.pagination.total)).toEqual(pages.map(() => 31));
    expect(pages.flatMap((page) => inOrder(page.data))).toEqual(expected);
    const kayali = await found('KAYALI');
    expect(inOrder(kayali.data)).toEqual([twice._id]);
    expect(kayali.pagination.total).toBe(1);
    const past = await found('kaya', '&limit=5&page=8');
    expect(past).toMatchObject({ data: [], pagination: { total: 31 } });
  });

  it('counts and pages within a status', async () => {
    await api(current()).users.update(twice._id, { status: 'blocked' }).expect(200);
    const blocked = await found('kaya', '&status=blocked');
    expect(inOrder(blocked.data)).toEqual([twice._id]);
    expect(blocked.pagination.total).toBe(1);
    const expected = await newestFirst(
      kayas.map(({ _id }) => _id),
      '&status=active',
    );
    const pages = await paged('kaya', 4, '&status=active');
    expect(pages.map((page) => page.pagination.total)).toEqual(pages.map(() => 30));
    expect(pages.flatMap((page) => inOrder(page.data))).toEqual(expected);
  });

  it('unites the word with another key that finds the same users or others, each once', async () => {
    const desk = await givenUser(current(), { name: 'Desk Person', username: 'kaya.desk', venueIds: [VENUE] });
    // Found by its username and its name's words: once.
    const both = await givenUser(current(), { name: 'Ece Kaya', username: 'kaya.ece', venueIds: [VENUE] });
    const expected = await newestFirst([...kayas, twice, desk, both].map(({ _id }) => _id));
    expect(expected).toHaveLength(33);
    const pages = await paged('kaya', 5);
    expect(pages.map((page) => page.pagination.total)).toEqual(pages.map(() => 33));
    expect(pages.flatMap((page) => inOrder(page.data))).toEqual(expected);
  });
});
