import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { dateTimeParameter, ID_LENGTH, readDateTime } from '../database/columns.js';
import { DatabaseService } from '../database/database.service.js';
import { isSqlite } from '../database/plain-sql.js';
import { DeviceEntity } from '../sessions/entities/device.entity.js';
import { reversedMac } from '../common/search/search-folds.js';
import { USERNAME_MAX_LENGTH, usernameKey } from '../common/validation/normalise.js';
import { HotspotUserNameWordEntity } from './entities/hotspot-user-name-word.entity.js';
import { HotspotUserVenueEntity } from './entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity, type UserStatus } from './entities/hotspot-user.entity.js';
import { KEY_FIELDS, type KeyHolder, type UniquenessKeys } from './hotspot-user.rules.js';
import { pageOrder, shownRecordsOf, type PageRow, type ShownRecord, type ShownUserRow } from './user-rows.js';
import {
  LIKE_ESCAPE,
  prefixRange,
  SEARCHABLE_FIELDS,
  type SearchKeys,
  type SearchPrefixes,
  walksNewestFirst,
} from './user-search.rules.js';
import { bucketEnd, pageStart } from './venue-counts.rules.js';
import { USER_TEXT_FIELDS, userTextColumn } from './user-text-fields.js';

export type { ShownRecord };

/** A user with its venues in their stored order. */
export interface UserRecord {
  user: HotspotUserEntity;
  venueIds: string[];
}

/** How a page names a user: its name, and its username when it has one. */
export type GuestName = Pick<HotspotUserEntity, 'name' | 'username'>;

/** What accounting needs to know of a user: its standing, and whether it is in the NAS's venue. */
export type UserStanding = Pick<HotspotUserEntity, 'id' | 'username' | 'status' | 'expiresAt' | 'createdAt'> & {
  inVenue: boolean;
};

export interface VenueListFilter {
  venueId: string;
  status?: UserStatus;
  /** Matches the user's own MAC address or one of its devices'. */
  macAddress: string | null;
  /** `q`: a prefix of a searchable field's key or a MAC (user-search.rules.ts); null: no search. */
  search: SearchPrefixes | null;
  /** Only the accounts of this batch (an addition to v1); null: any user. Not combined with `search`. */
  batchId?: string | null;
  /** Leaves out the batches' accounts (vouchers), an addition to v1; not combined with `search` or `batchId`. */
  excludeBatches?: boolean;
}

/** The columns a venue row copies from its user, and its uniqueness keys. */
export type VenueRowFields = Pick<HotspotUserVenueEntity, 'position' | 'userStatus' | 'inBatch'> &
  UniquenessKeys &
  SearchKeys;

/**
 * The SQL of hotspot users and their venue rows; every method runs on the caller's EntityManager
 * (its transaction, if any). The methods that lock do so on MySQL/MariaDB; on SQLite the
 * transaction already holds the database's write lock.
 */
@Injectable()
export class HotspotUsersRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * One page of a venue's users, newest first, with their venues and devices, and how many users
   * match in all. Without a MAC filter the total comes from the venue's counters and a deep page
   * starts reading the list index at the hour that holds its offset, so neither costs more in a large
   * venue; the MAC filter is selective and counts its matches.
   */
  async findVenuePage(
    em: EntityManager,
    filter: VenueListFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; records: ShownRecord[] }> {
    if (filter.search !== null) return this.findVenuePageBySearch(em, { ...filter, search: filter.search }, page);
    if (filter.macAddress !== null || filter.batchId != null) return this.findVenuePageFiltered(em, filter, page);
    const { venueId, status } = filter;
    if (filter.excludeBatches === true) return this.findGuestPage(em, venueId, status, page);
    if (page.offset === 0) return this.findFirstPage(em, venueId, status, page.limit);
    const start = await this.findPageStart(em, venueId, status, page.offset);
    if (start === null) return { total: await this.countVenueUsers(em, venueId, status), records: [] };
    // The page's ids first, then their records: reading the records in the same statement would walk
    // the list index past the offset once per branch.
    const rows: Array<{ user_id: string; total: number | string }> = await em.query(
      `SELECT user_id, ${venueTotal(status)} AS total ${listRange(status, true)}`,
      [...venueTotalParams(venueId, status), ...listRangeParams(venueId, status, start, page)],
    );
    if (rows.length === 0) return { total: await this.countVenueUsers(em, venueId, status), records: [] };
    const ids = rows.map((row) => row.user_id);
    return { total: Number(rows[0].total), records: await this.findShownRecords(em, ids) };
  }

  /** Page 1, the page almost every caller asks for: its ids, records and total in one statement. */
  private async findFirstPage(
    em: EntityManager,
    venueId: string,
    status: UserStatus | undefined,
    limit: number,
  ): Promise<{ total: number; records: ShownRecord[] }> {
    const range = listRangeParams(venueId, status, null, { offset: 0, limit });
    // Each branch reads the page's ids from the list index again, which costs less than a round trip.
    const rows: PageRow[] = await em.query(
      `SELECT ${USER_ROW_COLUMNS}, p.user_created_at AS page_key, ${venueTotal(status)} AS total
       FROM (SELECT user_id, user_created_at ${listRange(status, false)}) p JOIN hotspot_users u ON u.id = p.user_id
       LEFT JOIN hotspot_user_venues v ON v.user_id = u.id
       UNION ALL
       SELECT ${DEVICE_ROW_COLUMNS}, NULL, NULL FROM (SELECT user_id ${listRange(status, false)}) p JOIN devices d ON d.user_id = p.user_id`,
      [...venueTotalParams(venueId, status), ...range, ...range],
    );
    const first = rows.find((row) => row.total !== null);
    if (first === undefined) return { total: await this.countVenueUsers(em, venueId, status), records: [] };
    return { total: Number(first.total), records: shownRecordsOf(rows, pageOrder(rows)) };
  }

  /**
   * A page of the venue's users that are no batch's account, newest first: one range of
   * idx_user_venues_guests (or its by-status twin) read up to the page's end. The total is the
   * venue's from its counters less its batch accounts, counted over their own range of the same
   * index, in the same statement.
   */
  private async findGuestPage(
    em: EntityManager,
    venueId: string,
    status: UserStatus | undefined,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; records: ShownRecord[] }> {
    const { sql, params } = guestPage(venueId, status, page);
    const rows: Array<{ user_id: string; total: number | string }> = await em.query(sql, params);
    return this.pageOfRows(em, rows, `SELECT ${guestTotal(status)} AS total`, guestTotalParams(venueId, status));
  }

  /** By MAC address, by batch, or both (and without the batches' accounts). */
  private async findVenuePageFiltered(
    em: EntityManager,
    filter: VenueListFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; records: ShownRecord[] }> {
    const matching = em
      .createQueryBuilder(HotspotUserVenueEntity, 'uv')
      .where('uv.venueId = :venueId', { venueId: filter.venueId });
    if (filter.status !== undefined) matching.andWhere('uv.userStatus = :status', { status: filter.status });
    if (filter.excludeBatches === true) matching.andWhere('uv.inBatch = :inBatch', { inBatch: false });
    if (filter.batchId != null) {
      const inBatch = matching
        .subQuery()
        .select('1')
        .from(HotspotUserEntity, 'b')
        .where('b.id = uv.userId')
        .andWhere('b.batchId = :batchId')
        .getQuery();
      matching.andWhere(`EXISTS ${inBatch}`, { batchId: filter.batchId });
    }
    if (filter.macAddress !== null) this.whereMac(matching, filter.macAddress);
    const total = await matching.getCount();
    return {
      total,
      records: await this.findShownRecords(em, await pageIds(matching.clone(), page.offset, page.limit)),
    };
  }

  /** The venue row's user has this MAC address, or one of its devices has. */
  private whereMac(matching: SelectQueryBuilder<HotspotUserVenueEntity>, macAddress: string): void {
    const withMac = (entity: typeof HotspotUserEntity | typeof DeviceEntity, alias: string, userColumn: string) =>
      `EXISTS ${matching
        .subQuery()
        .select('1')
        .from(entity, alias)
        .where(`${alias}.${userColumn} = uv.userId`)
        .andWhere(`${alias}.macAddress = :mac`)
        .getQuery()}`;
    matching.andWhere(
      new Brackets((either) =>
        either.where(withMac(HotspotUserEntity, 'u', 'id')).orWhere(withMac(DeviceEntity, 'd', 'userId')),
      ),
      { mac: macAddress },
    );
  }

  /**
   * The venue's users with a key starting with one of the search's prefixes (searchBranches), newest
   * first. First each branch's users are counted, each from its own index range, in one statement.
   * When one branch alone finds anyone, which is how a desk's search mostly goes, its count is the
   * total and its page is read from its range alone: a common name word's by walking the venue's words
   * newest first (walksNewestFirst), the others sorted. When several do, their union (only theirs) is
   * sorted and counted in one statement, as a user can be in more than one.
   */
  private async findVenuePageBySearch(
    em: EntityManager,
    filter: VenueListFilter & { search: SearchPrefixes },
    page: { offset: number; limit: number },
  ): Promise<{ total: number; records: ShownRecord[] }> {
    const branches = searchBranches(filter, searchDialect(em));
    if (filter.macAddress !== null) return this.findUnitedPage(em, branches, filter.macAddress, page);
    if (branches.length === 0) return { total: 0, records: [] };
    const words = branches.some((branch) => branch.newestFirst !== undefined);
    const [counts] = await em.query<Array<Record<string, number | string>>>(
      `SELECT ${branches.map((branch, i) => `(SELECT ${branch.counted} ${branch.rows}) AS c${i}`).join(', ')}${
        words ? `, ${venueTotal(filter.status)} AS venue_users` : ''
      }`,
      [
        ...branches.flatMap((branch) => branch.params),
        ...(words ? venueTotalParams(filter.venueId, filter.status) : []),
      ],
    );
    const found = branches
      .map((branch, i) => ({ branch, users: Number(counts[`c${i}`]) }))
      .filter(({ users }) => users > 0);
    if (found.length === 0) return { total: 0, records: [] };
    const united = found.map(({ branch }) => branch);
    if (found.length > 1) return this.findUnitedPage(em, united, null, page);
    const [{ branch, users }] = found;
    if (page.offset >= users) return { total: users, records: [] };
    const from =
      branch.newestFirst !== undefined && walksNewestFirst(users, Number(counts.venue_users), page)
        ? branch.newestFirst
        : branch.rows;
    const rows: Array<{ user_id: string }> = await em.query(
      `SELECT uv.user_id ${from}
       ${branch.repeats ? 'GROUP BY uv.user_created_at, uv.user_id' : ''}
       ORDER BY uv.user_created_at DESC, uv.user_id DESC LIMIT ? OFFSET ?`,
      [...branch.params, page.limit, page.offset],
    );
    const ids = rows.map((row) => row.user_id);
    return { total: users, records: await this.findShownRecords(em, ids) };
  }

  /** A page of the union of `branches` (unitedMatches), newest first, with the union's total. */
  private async findUnitedPage(
    em: EntityManager,
    branches: readonly SearchBranch[],
    macAddress: string | null,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; records: ShownRecord[] }> {
    const { sql, params } = unitedMatches(branches, macAddress);
    if (sql === null) return { total: 0, records: [] };
    const rows: Array<{ user_id: string; total: number | string }> = await em.query(
      `SELECT user_id, COUNT(*) OVER () AS total FROM (${sql}) m
       ORDER BY user_created_at DESC, user_id DESC LIMIT ? OFFSET ?`,
      [...params, page.limit, page.offset],
    );
    return this.pageOfRows(em, rows, `SELECT COUNT(*) AS total FROM (${sql}) m`, params);
  }

  /**
   * A page from its ids with the total beside each; past the last page (no row) the total is counted
   * by `countSql` instead.
   */
  private async pageOfRows(
    em: EntityManager,
    rows: ReadonlyArray<{ user_id: string; total: number | string }>,
    countSql: string,
    countParams: readonly unknown[],
  ): Promise<{ total: number; records: ShownRecord[] }> {
    if (rows.length === 0) {
      const [count] = await em.query<Array<{ total: number | string }>>(countSql, [...countParams]);
      return { total: Number(count.total), records: [] };
    }
    return {
      total: Number(rows[0].total),
      records: await this.findShownRecords(
        em,
        rows.map((row) => row.user_id),
      ),
    };
  }

  /** Users of a venue, in one status or all, from its counters. */
  async countVenueUsers(em: EntityManager, venueId: string, status: UserStatus | undefined): Promise<number> {
    const rows: Array<{ total: number | string }> = await em.query(
      `SELECT ${venueTotal(status)} AS total`,
      venueTotalParams(venueId, status),
    );
    return Number(rows[0].total);
  }

  /** The hour that holds the `offset`-th newest user of the venue, read newest first in chunks; null past the end. */
  private async findPageStart(
    em: EntityManager,
    venueId: string,
    status: UserStatus | undefined,
    offset: number,
  ): Promise<{ bucket: number; skipped: number } | null> {
    let skipped = 0;
    let below: number | null = null;
    for (;;) {
      // One statement, so the counters and the changes not yet folded into them are read at one moment.
      const rows: Array<{ bucket: number | string; count: number | string }> = await em.query(
        `SELECT bucket, SUM(n) AS count FROM (
           SELECT * FROM (${bucketSums('venue_user_buckets', 'user_count', status, below)}) counted
           UNION ALL
           SELECT * FROM (${bucketSums('venue_user_count_changes', 'delta', status, below)}) changed
         ) b GROUP BY bucket ORDER BY bucket DESC LIMIT ?`,
        [...bucketSumsParams(venueId, status, below), ...bucketSumsParams(venueId, status, below), BUCKET_CHUNK],
      );
      const buckets = rows.map((row) => ({ bucket: Number(row.bucket), count: Number(row.count) }));
      const start = pageStart(buckets, offset - skipped);
      if (start !== null) return { bucket: start.bucket, skipped: skipped + start.skipped };
      if (buckets.length < BUCKET_CHUNK) return null;
      skipped += buckets.reduce((sum, { count }) => sum + count, 0);
      below = buckets[buckets.length - 1].bucket;
    }
  }

  /** The id of the user holding `username` (case-insensitive, as the uniqueness key) in `venueId`; null when none does. */
  async findIdByUsernameInVenue(em: EntityManager, venueId: string, username: string): Promise<string | null> {
    const key = usernameKey(username);
    if (key.length > USERNAME_MAX_LENGTH) return null;
    const [row] = await em.query<Array<{ user_id: string }>>(
      'SELECT user_id FROM hotspot_user_venues WHERE venue_id = ? AND username_key = ?',
      [venueId, key],
    );
    return row?.user_id ?? null;
  }

  findRecord(em: EntityManager, id: string): Promise<UserRecord | null> {
    return this.readRecord(em, id, false);
  }

  /**
   * The user locked for the caller's transaction (`SELECT … FOR UPDATE` on MySQL), with its venues;
   * null when there is none. Every change of a user's status and every session start locks this row
   * first, before any other read: on MySQL the venue rows are read from the snapshot the
   * transaction's first plain read takes, which must not predate the lock.
   */
  lockRecord(em: EntityManager, id: string): Promise<UserRecord | null> {
    return this.readRecord(em, id, true);
  }

  /**
   * Users with their venues and devices, in the order of `ids`; ids without a user are left out. One
   * statement, so a record costs a single round trip: a row per venue of each user (with the user's
   * columns), then a row per device. Cheaper for the database than aggregating venues and devices
   * into JSON, and no product of venues and devices as a plain join would give.
   */
  async findShownRecords(em: EntityManager, ids: readonly string[]): Promise<ShownRecord[]> {
    // Ids are opaque: anything that cannot be one is simply not found.
    const wanted = ids.filter((id) => id.length > 0 && id.length <= ID_LENGTH);
    if (wanted.length === 0) return [];
    const list = wanted.map(() => '?').join(', ');
    const rows: ShownUserRow[] = await em.query(
      `SELECT ${USER_ROW_COLUMNS} FROM hotspot_users u LEFT JOIN hotspot_user_venues v ON v.user_id = u.id
       WHERE u.id IN (${list})
       UNION ALL
       SELECT ${DEVICE_ROW_COLUMNS} FROM devices d WHERE d.user_id IN (${list})`,
      [...wanted, ...wanted],
    );
    return shownRecordsOf(rows, wanted);
  }

  /**
   * The user's row alone, locked like lockRecord's, with whether the user is in `venueId`, for a use
   * case that needs neither its venues nor its other columns (RADIUS accounting): one query. Null
   * when there is none.
   */
  async lockStanding(em: EntityManager, id: string, venueId: string): Promise<UserStanding | null> {
    if (id.length === 0 || id.length > ID_LENGTH) return null;
    // Plain SQL: it runs for every accounting packet. The venue row is read, not locked.
    const [row] = await em.query<
      Array<
        Pick<UserStanding, 'id' | 'username' | 'status'> & {
          expires_at: Date | string | null;
          created_at: Date | string;
          in_venue: unknown;
        }
      >
    >(
      `SELECT u.id, u.username, u.status, u.expires_at, u.created_at,
         EXISTS (SELECT 1 FROM hotspot_user_venues uv WHERE uv.user_id = u.id AND uv.venue_id = ?) AS in_venue
       FROM hotspot_users u WHERE u.id = ?${this.database.supportsRowLocks ? ' FOR UPDATE' : ''}`,
      [venueId, id],
    );
    return row === undefined
      ? null
      : {
          id: row.id,
          username: row.username,
          status: row.status,
          expiresAt: readDateTime(row.expires_at),
          createdAt: readDateTime(row.created_at),
          inVenue: Number(row.in_venue) === 1,
        };
  }

  /** Ids of users in one of `statuses` whose expiresAt is at or before `now`, soonest first (an indexed query). */
  async findIdsExpiringBy(
    em: EntityManager,
    statuses: readonly UserStatus[],
    now: Date,
    limit: number,
  ): Promise<string[]> {
    const users = await expiringBy(em.createQueryBuilder(HotspotUserEntity, 'user').select('user.id'), statuses, now)
      .orderBy('user.expiresAt', 'ASC')
      .limit(limit)
      .getMany();
    return users.map((user) => user.id);
  }

  /**
   * The user `id` with its venues, locked, if it is still in one of `statuses` with expiresAt at or
   * before `now`; null otherwise, and on MySQL also when another transaction holds its row (SKIP LOCKED).
   */
  async lockIfExpiringBy(
    em: EntityManager,
    id: string,
    statuses: readonly UserStatus[],
    now: Date,
  ): Promise<UserRecord | null> {
    const query = expiringBy(em.createQueryBuilder(HotspotUserEntity, 'user'), statuses, now).andWhere(
      'user.id = :id',
      { id },
    );
    if (this.database.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    const user = await query.getOne();
    return user === null ? null : { user, venueIds: await this.venueIdsOf(em, id) };
  }

  /** Other users' venue rows, among `venueIds`, that hold one of `keys`. */
  findKeyHolders(
    em: EntityManager,
    userId: string,
    venueIds: readonly string[],
    keys: UniquenessKeys,
  ): Promise<KeyHolder[]> {
    const present = KEY_FIELDS.filter(({ key }) => keys[key] !== null);
    if (present.length === 0 || venueIds.length === 0) return Promise.resolve([]);
    return em
      .createQueryBuilder(HotspotUserVenueEntity, 'uv')
      .where('uv.venueId IN (:...venueIds)', { venueIds })
      .andWhere('uv.userId <> :userId', { userId })
      .andWhere(
        new Brackets((any) => {
          for (const { key } of present) any.orWhere(`uv.${key} = :${key}`, { [key]: keys[key] });
        }),
      )
      .getMany();
  }

  /** The user's row, with its MAC's search key (mac_reversed). */
  async insert(em: EntityManager, user: HotspotUserEntity): Promise<void> {
    await em.insert(HotspotUserEntity, { ...user, macReversed: macReversedOf(user.macAddress) });
  }

  /** The given columns; a changed MAC changes its search key (mac_reversed) with it. */
  async update(em: EntityManager, id: string, changes: Partial<HotspotUserEntity>): Promise<void> {
    const macKey = changes.macAddress === undefined ? {} : { macReversed: macReversedOf(changes.macAddress) };
    await em.update(HotspotUserEntity, { id }, { ...changes, ...macKey });
  }

  /**
   * Name word rows, each by its primary key: on MySQL a record lock apiece, no gap lock that a
   * concurrent write of another user's words would wait on.
   */
  async deleteNameWords(em: EntityManager, rows: readonly HotspotUserNameWordEntity[]): Promise<void> {
    for (const { userId, venueId, word } of rows) {
      await em.delete(HotspotUserNameWordEntity, { userId, venueId, word });
    }
  }

  async insertNameWords(em: EntityManager, rows: readonly HotspotUserNameWordEntity[]): Promise<void> {
    for (let start = 0; start < rows.length; start += NAME_WORDS_PER_INSERT) {
      await em.insert(HotspotUserNameWordEntity, rows.slice(start, start + NAME_WORDS_PER_INSERT));
    }
  }

  /** Venue rows, devices and sessions go with the user (ON DELETE CASCADE). */
  async delete(em: EntityManager, id: string): Promise<void> {
    await em.delete(HotspotUserEntity, { id });
  }

  async deleteVenueRows(em: EntityManager, userId: string, venueIds: readonly string[]): Promise<void> {
    if (venueIds.length === 0) return;
    await em.delete(HotspotUserVenueEntity, { userId, venueId: In([...venueIds]) });
  }

  async updateVenueRow(em: EntityManager, userId: string, venueId: string, fields: VenueRowFields): Promise<void> {
    await em.update(HotspotUserVenueEntity, { userId, venueId }, fields);
  }

  async insertVenueRows(em: EntityManager, rows: readonly HotspotUserVenueEntity[]): Promise<void> {
    if (rows.length === 0) return;
    await em.insert(HotspotUserVenueEntity, [...rows]);
  }

  private async readRecord(em: EntityManager, id: string, lock: boolean): Promise<UserRecord | null> {
    // Ids are opaque: anything that cannot be one is simply not found (lockStanding alike).
    if (id.length === 0 || id.length > ID_LENGTH) return null;
    const query = em.createQueryBuilder(HotspotUserEntity, 'user').where('user.id = :id', { id });
    if (lock && this.database.supportsRowLocks) query.setLock('pessimistic_write');
    const user = await query.getOne();
    return user === null ? null : { user, venueIds: await this.venueIdsOf(em, id) };
  }

  private async venueIdsOf(em: EntityManager, userId: string): Promise<string[]> {
    const venues = await em.find(HotspotUserVenueEntity, { where: { userId }, order: { position: 'ASC' } });
    return venues.map((venue) => venue.venueId);
  }

  /** The name and username of each of the users that exist, by id (pages that name a user they link to). */
  async findGuestNames(em: EntityManager, ids: readonly string[]): Promise<Map<string, GuestName>> {
    const wanted = [...new Set(ids.filter((id) => id.length > 0 && id.length <= ID_LENGTH))];
    if (wanted.length === 0) return new Map();
    const users = await em.find(HotspotUserEntity, {
      select: { id: true, username: true, name: true },
      where: { id: In(wanted) },
    });
    return new Map(users.map((user) => [user.id, { name: user.name, username: user.username }]));
  }

  /** The username (or, without one, the name) of each of the users that exist, by id. */
  /**
   * The users the search finds in the venue (searchMatches) that Online now lists there: with an
   * active session in it, or one ended here whose Disconnect is unconfirmed (the two ranges
   * findOnlinePageOfVenue reads). At most the venue's users online, however many the search finds.
   */
  async findOnlineMatches(em: EntityManager, venueId: string, search: SearchPrefixes): Promise<string[]> {
    const { sql, params } = searchMatches({ venueId, macAddress: null, search }, searchDialect(em));
    if (sql === null) return [];
    const rows: Array<{ user_id: string }> = await em.query(
      `SELECT user_id FROM sessions WHERE venue_id = ? AND status = 'active'
         AND user_id IN (SELECT m.user_id FROM (${sql}) m)
       UNION
       SELECT user_id FROM sessions WHERE disconnect_job_id IS NOT NULL AND venue_id = ? AND status <> 'active'
         AND user_id IN (SELECT m.user_id FROM (${sql}) m)`,
      [venueId, ...params, venueId, ...params],
    );
    return rows.map((row) => row.user_id);
  }

  async findUserNames(em: EntityManager, ids: readonly string[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id) => id.length > 0 && id.length <= ID_LENGTH))];
    if (wanted.length === 0) return new Map();
    const users = await em.find(HotspotUserEntity, {
      select: { id: true, username: true, name: true },
      where: { id: In(wanted) },
    });
    return new Map(users.map((user) => [user.id, user.username ?? user.name]));
  }

  /**
   * Up to `limit` of a venue's users after `after` (keyset, newest first: the list index's order), for
   * an export read page by page: each page is one range of the list index however deep, so reading a
   * venue of 100,000 users costs no more per page at the end than at the start.
   */
  async findVenueUserKeys(
    em: EntityManager,
    venueId: string,
    after: VenueUserKey | null,
    limit: number,
  ): Promise<VenueUserKey[]> {
    const rows: Array<{ user_id: string; user_created_at: Date | string }> = await em.query(
      `SELECT user_id, user_created_at FROM hotspot_user_venues
       WHERE venue_id = ?${after === null ? '' : ' AND (user_created_at < ? OR (user_created_at = ? AND user_id < ?))'}
       ORDER BY user_created_at DESC, user_id DESC LIMIT ?`,
      after === null
        ? [venueId, limit]
        : [venueId, dateTimeParameter(after.createdAt), dateTimeParameter(after.createdAt), after.userId, limit],
    );
    return rows.map((row) => ({ userId: row.user_id, createdAt: readDateTime(row.user_created_at) }));
  }
}

/** Where a venue's user stands in the list index's order (its creation time, then its id). */
export interface VenueUserKey {
  userId: string;
  createdAt: Date;
}

/** A user row of the one-statement read (`u` a user, `v` one of its venue rows); see ShownUserRow. */
const USER_ROW_COLUMNS = `u.id, u.name, u.username, u.mac_address, u.login_method, u.status,
  u.password_hash, u.expires_at, u.valid_for, u.first_login_at, u.metadata, u.created_at, u.updated_at, u.version,
  v.venue_id, v.position,
  NULL AS device_id, NULL AS device_mac, NULL AS device_name, NULL AS device_status, NULL AS first_seen_at,
  NULL AS last_seen_at, u.batch_id, u.plan_id, ${USER_TEXT_FIELDS.map((field) => `u.${userTextColumn(field)} AS ${field}`).join(', ')}`;

/** A device row of the one-statement read (`d` a device), column for column with USER_ROW_COLUMNS. */
const DEVICE_ROW_COLUMNS = `d.user_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL, d.id, d.mac_address, d.name, d.status, d.first_seen_at, d.last_seen_at, NULL, NULL${', NULL'.repeat(USER_TEXT_FIELDS.length)}`;

/**
 * The venue's total from its counters and the changes not yet folded into them, as a scalar
 * expression; its parameters are venueTotalParams'.
 */
function venueTotal(status: UserStatus | undefined): string {
  const where = `WHERE venue_id = ?${status === undefined ? '' : ' AND user_status = ?'}`;
  return `((SELECT COALESCE(SUM(user_count), 0) FROM venue_user_counts ${where}) + (SELECT COALESCE(SUM(delta), 0) FROM venue_user_count_changes ${where}))`;
}

/**
 * One page of the venue's users that are no batch's account (`user_id`, with their `total`), newest
 * first: a range of idx_user_venues_guests, or of its by-status twin with a status.
 */
export function guestPage(
  venueId: string,
  status: UserStatus | undefined,
  page: { offset: number; limit: number },
): { sql: string; params: Array<string | number> } {
  return {
    sql: `SELECT user_id, ${guestTotal(status)} AS total FROM hotspot_user_venues
       WHERE venue_id = ? AND in_batch = 0${status === undefined ? '' : ' AND user_status = ?'}
       ORDER BY user_created_at DESC, user_id DESC LIMIT ? OFFSET ?`,
    params: [...guestTotalParams(venueId, status), ...venueKey(venueId, status), page.limit, page.offset],
  };
}

/**
 * The venue's users that are no batch's account: its total (venueTotal) less its batch accounts,
 * counted over their range of idx_user_venues_guests; its parameters are guestTotalParams'.
 */
function guestTotal(status: UserStatus | undefined): string {
  return `(${venueTotal(status)} - (SELECT COUNT(*) FROM hotspot_user_venues
     WHERE venue_id = ? AND in_batch = 1${status === undefined ? '' : ' AND user_status = ?'}))`;
}

function guestTotalParams(venueId: string, status: UserStatus | undefined): string[] {
  return [...venueTotalParams(venueId, status), ...venueKey(venueId, status)];
}

function venueTotalParams(venueId: string, status: UserStatus | undefined): string[] {
  const one = venueKey(venueId, status);
  return [...one, ...one];
}

function venueKey(venueId: string, status: UserStatus | undefined): string[] {
  return status === undefined ? [venueId] : [venueId, status];
}

/**
 * The newest BUCKET_CHUNK hours of a venue in `table` (the hour counts, or their changes) below
 * `below`, each with its sum, read in the order of the table's index; its parameters are
 * bucketSumsParams'. Any hour among the newest BUCKET_CHUNK of the two tables together is among
 * the newest of each, so summing the two reads is exact for those hours.
 */
function bucketSums(table: string, column: string, status: UserStatus | undefined, below: number | null): string {
  return `SELECT bucket, SUM(${column}) AS n FROM ${table}
     WHERE venue_id = ?${status === undefined ? '' : ' AND user_status = ?'}${below === null ? '' : ' AND bucket < ?'}
     GROUP BY bucket ORDER BY bucket DESC LIMIT ${BUCKET_CHUNK}`;
}

function bucketSumsParams(
  venueId: string,
  status: UserStatus | undefined,
  below: number | null,
): Array<string | number> {
  return [...venueKey(venueId, status), ...(below === null ? [] : [below])];
}

/**
 * The `FROM … LIMIT` clauses that read a page's rows of the list index, newest first, from the hour
 * that holds the page's start when `fromStart`; their parameters are listRangeParams'.
 */
function listRange(status: UserStatus | undefined, fromStart: boolean): string {
  return `FROM hotspot_user_venues
     WHERE venue_id = ?${status === undefined ? '' : ' AND user_status = ?'}${fromStart ? ' AND user_created_at < ?' : ''}
     ORDER BY user_created_at DESC, user_id DESC LIMIT ? OFFSET ?`;
}

function listRangeParams(
  venueId: string,
  status: UserStatus | undefined,
  start: { bucket: number; skipped: number } | null,
  page: { offset: number; limit: number },
): Array<string | number> {
  return [
    ...venueKey(venueId, status),
    ...(start === null ? [] : [dateTimeParameter(bucketEnd(start.bucket))]),
    page.limit,
    page.offset - (start?.skipped ?? 0),
  ];
}

/**
 * The database a search's SQL is for. On MySQL each branch names its index (FORCE INDEX): planning
 * many alike indexes costs it more than reading a short range; SQLite's planner picks them cheaply.
 */
export type SearchDialect = 'mysql' | 'sqlite';

/**
 * One branch of a search (searchBranches): the venue rows of one index range, as `uv` (its
 * `user_id` and `user_created_at`).
 */
export interface SearchBranch {
  /** `FROM … WHERE …` of the branch's rows. */
  rows: string;
  params: Array<string | number>;
  /** How many users the rows are (a name's words or a user's devices can repeat a user). */
  counted: string;
  /** Whether a user can be in the rows more than once. */
  repeats: boolean;
  /** A name word's branch: its rows read from the venue's words newest first (walksNewestFirst), by index. */
  newestFirst?: string;
}

/** The index of a venue's name words newest first, which a page of a common word walks. */
const NEWEST_WORDS_INDEX = 'idx_user_name_words_newest';

/** The branch's index named, on MySQL only. */
const forceIndex = (dialect: SearchDialect, name: string) => (dialect === 'mysql' ? ` FORCE INDEX (${name})` : '');
/** The index named on either database: a walk no planner would choose by itself. */
const namedIndex = (dialect: SearchDialect, name: string) =>
  dialect === 'sqlite' ? ` INDEXED BY ${name}` : forceIndex(dialect, name);

/**
 * The branches of a search: one range of an index that starts with the venue per SEARCHABLE_FIELDS
 * key `q` can be a prefix of, in their order, then the name words' (idx_user_name_words_search);
 * the MAC ones: of the MAC's own index and of the MAC backwards (its end), each joined to the
 * venue's rows.
 */
export function searchBranches(
  filter: Pick<VenueListFilter, 'venueId' | 'status'> & { search: SearchPrefixes },
  dialect: SearchDialect,
): SearchBranch[] {
  const { venueId, status, search } = filter;
  const branches: SearchBranch[] = [];
  const statusSql = status === undefined ? '' : ' AND uv.user_status = ?';
  const venueParams = status === undefined ? [venueId] : [venueId, status];
  const range = (column: string, prefix: string) => {
    const { from, to, like } = prefixRange(prefix);
    const below = to === null ? '' : ` AND ${column} < ?`;
    return {
      sql: `${column} >= ?${below}${like === null ? '' : ` AND ${column} LIKE ? ESCAPE '${LIKE_ESCAPE}'`}`,
      params: [from, ...(to === null ? [] : [to]), ...(like === null ? [] : [like])],
    };
  };
  for (const { column, kind, index } of SEARCHABLE_FIELDS) {
    const prefix = search[kind];
    if (prefix === null) continue;
    const where = range(`uv.${column}`, prefix);
    branches.push({
      rows: `FROM hotspot_user_venues uv${forceIndex(dialect, index)} WHERE uv.venue_id = ?${statusSql} AND ${where.sql}`,
      params: [...venueParams, ...where.params],
      counted: 'COUNT(*)',
      repeats: false,
    });
  }
  if (search.word !== null) {
    const where = range('uv.word', search.word);
    const words = (hint: string) =>
      `FROM hotspot_user_name_words uv${hint} WHERE uv.venue_id = ?${statusSql} AND ${where.sql}`;
    branches.push({
      rows: words(forceIndex(dialect, 'idx_user_name_words_search')),
      params: [...venueParams, ...where.params],
      // Two words of a user can match only if they start alike (shares_initial): the other rows are one user each.
      counted:
        'COUNT(CASE WHEN uv.shares_initial = 0 THEN 1 END) + COUNT(DISTINCT CASE WHEN uv.shares_initial = 1 THEN uv.user_id END)',
      repeats: true,
      newestFirst: words(namedIndex(dialect, NEWEST_WORDS_INDEX)),
    });
  }
  for (const [column, prefix] of [
    ['mac_address', search.mac],
    ['mac_reversed', search.macSuffix],
  ] as const) {
    if (prefix === null) continue;
    for (const [table, userColumn] of [
      ['hotspot_users', 'id'],
      ['devices', 'user_id'],
    ] as const) {
      const where = range(`x.${column}`, prefix);
      branches.push({
        rows: `FROM ${table} x${forceIndex(dialect, `idx_${table}_${column}`)}
          JOIN hotspot_user_venues uv${forceIndex(dialect, 'PRIMARY')} ON uv.user_id = x.${userColumn}
         WHERE uv.venue_id = ?${statusSql} AND ${where.sql}`,
        params: [...venueParams, ...where.params],
        counted: 'COUNT(DISTINCT uv.user_id)',
        repeats: true,
      });
    }
  }
  return branches;
}

function searchDialect(em: EntityManager): SearchDialect {
  return isSqlite(em.connection) ? 'sqlite' : 'mysql';
}

/**
 * The union of the venue rows a search matches (`user_id`, `user_created_at`), with its parameters;
 * null when `q` is no prefix of any key (white space alone): the rows of each of searchBranches,
 * united, and with the list's exact MAC filter, only those whose user or one of its devices has it.
 */
export function searchMatches(
  filter: VenueListFilter & { search: SearchPrefixes },
  dialect: SearchDialect = 'sqlite',
): {
  sql: string | null;
  params: Array<string | number>;
} {
  return unitedMatches(searchBranches(filter, dialect), filter.macAddress);
}

/** The union of `branches`' rows (`user_id`, `user_created_at`), kept to those with `macAddress` when given. */
export function unitedMatches(
  branches: readonly SearchBranch[],
  macAddress: string | null,
): { sql: string | null; params: Array<string | number> } {
  if (branches.length === 0) return { sql: null, params: [] };
  const params = branches.flatMap((branch) => branch.params);
  let sql = branches.map((branch) => `SELECT uv.user_id, uv.user_created_at ${branch.rows}`).join('\n UNION ');
  if (macAddress !== null) {
    sql = `SELECT s.user_id, s.user_created_at FROM (${sql}) s
      WHERE EXISTS (SELECT 1 FROM hotspot_users u WHERE u.id = s.user_id AND u.mac_address = ?)
         OR EXISTS (SELECT 1 FROM devices d WHERE d.user_id = s.user_id AND d.mac_address = ?)`;
    params.push(macAddress, macAddress);
  }
  return { sql, params };
}

/** Name word rows per INSERT: well under SQLite's and MySQL's placeholder limits at 5 columns. */
const NAME_WORDS_PER_INSERT = 500;

function macReversedOf(mac: string | null): string | null {
  return mac === null ? null : reversedMac(mac);
}

/** Hour counts read per query while looking for a deep page's start. */
const BUCKET_CHUNK = 1000;

/** The ids of one page of `matching` venue rows, newest first, read from the list index alone. */
async function pageIds(
  matching: SelectQueryBuilder<HotspotUserVenueEntity>,
  offset: number,
  limit: number,
): Promise<string[]> {
  const rows = await matching
    .select('uv.userId', 'userId')
    .orderBy('uv.userCreatedAt', 'DESC')
    .addOrderBy('uv.userId', 'DESC')
    .limit(limit)
    .offset(offset)
    .getRawMany<{ userId: string }>();
  return rows.map((row) => row.userId);
}

function expiringBy<T extends SelectQueryBuilder<HotspotUserEntity>>(
  query: T,
  statuses: readonly UserStatus[],
  now: Date,
): T {
  return query.where('user.status IN (:...statuses)', { statuses }).andWhere('user.expiresAt <= :now', { now });
}
