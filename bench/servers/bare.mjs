// The yardstick: a minimal node:http handler issuing the same SQL the service issues for the read
// workloads (status, list, get, the list's search), with a fixed bearer token and nothing else (no
// validation, logs, headers or error handling). The search's SQL comes from the built service's own
// builders (dist/), so it is the service's by construction. Run as a child process by bench/run.mjs:
//   node bench/servers/bare.mjs PORT TOKEN mysql://…|sqlite:PATH [POOL_SIZE]
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { createServer } from 'node:http';
import { searchBranches, unitedMatches } from '../../dist/src/hotspot-users/hotspot-users.repository.js';
import { searchPrefixes, walksNewestFirst } from '../../dist/src/hotspot-users/user-search.rules.js';

const [port, token, databaseUrl, poolSize = '20'] = process.argv.slice(2);
const PAGE_BUCKET_MS = 3_600_000;

/** `all(sql, params)` on either database; `?` placeholders on both. */
function connect(url) {
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length));
    const statements = new Map();
    const prepared = (sql) => statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql);
    return { all: async (sql, params) => prepared(sql).all(...params) };
  }
  // As many connections as the service's pool (bench/run.mjs passes its DB_POOL_SIZE).
  const pool = mysql.createPool({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    connectionLimit: Number(poolSize),
    dateStrings: true,
  });
  return { all: async (sql, params) => (await pool.query(sql, params))[0] };
}

const db = connect(databaseUrl);
const dialect = databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'mysql';
const placeholders = (values) => values.map(() => '?').join(', ');

const USER_ROW_COLUMNS = `u.id, u.name, u.username, u.email, u.phone, u.mac_address, u.login_method, u.status,
  u.password_hash, u.expires_at, u.metadata, u.created_at, u.updated_at, u.version, v.venue_id, v.position,
  NULL AS device_id, NULL AS device_mac, NULL AS device_name, NULL AS device_status, NULL AS first_seen_at,
  NULL AS last_seen_at`;
const DEVICE_ROW_COLUMNS = `d.user_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL, NULL, d.id, d.mac_address, d.name, d.status, d.first_seen_at, d.last_seen_at`;

/** Users with their venues and devices in one statement, as the service reads them. */
async function recordsOf(ids) {
  if (ids.length === 0) return [];
  const list = placeholders(ids);
  const rows = await db.all(
    `SELECT ${USER_ROW_COLUMNS} FROM hotspot_users u LEFT JOIN hotspot_user_venues v ON v.user_id = u.id
     WHERE u.id IN (${list})
     UNION ALL
     SELECT ${DEVICE_ROW_COLUMNS} FROM devices d WHERE d.user_id IN (${list})`,
    [...ids, ...ids],
  );
  return shownOf(rows, ids);
}

/** The records of `ids`, in that order, from the rows of the one-statement read. */
function shownOf(rows, ids) {
  const users = new Map();
  for (const row of rows) {
    if (row.device_id !== null) continue;
    const user = users.get(row.id) ?? {
      _id: row.id,
      name: row.name,
      username: row.username,
      email: row.email,
      phone: row.phone,
      macAddress: row.mac_address,
      loginMethod: row.login_method,
      status: row.status,
      expiresAt: row.expires_at,
      metadata: JSON.parse(row.metadata),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      venues: [],
      devices: [],
    };
    users.set(row.id, user);
    if (row.venue_id !== null) user.venues.push([row.position, row.venue_id]);
  }
  for (const row of rows) {
    if (row.device_id === null) continue;
    users.get(row.id)?.devices.push({
      macAddress: row.device_mac,
      name: row.device_name,
      status: row.device_status,
      firstSeenAt: row.first_seen_at,
      lastSeenAt: row.last_seen_at,
    });
  }
  return ids.flatMap((id) => {
    const user = users.get(id);
    if (user === undefined) return [];
    const { venues, ...shown } = user;
    return [{ ...shown, venueIds: venues.sort((a, b) => a[0] - b[0]).map((venue) => venue[1]) }];
  });
}

/**
 * A page as the service reads it: page 1 in one statement (its ids from the list index, their records
 * and the total from the counters); a deeper page's ids (from the hour that holds its offset, with
 * the total alongside), then their records.
 */
async function list(query) {
  const venueId = query.get('venueId');
  const status = query.get('status');
  const page = Number(query.get('page') ?? 1);
  const limit = Number(query.get('limit') ?? 20);
  const byStatus = status === null ? '' : ' AND user_status = ?';
  const params = status === null ? [venueId] : [venueId, status];
  // The counters and the changes not yet folded into them, as the service sums them.
  const total = `((SELECT COALESCE(SUM(user_count), 0) FROM venue_user_counts WHERE venue_id = ?${byStatus})
    + (SELECT COALESCE(SUM(delta), 0) FROM venue_user_count_changes WHERE venue_id = ?${byStatus}))`;
  const pagination = (count) => ({ page, limit, total: count, pages: Math.ceil(count / limit) });
  const offset = (page - 1) * limit;
  const q = query.get('q');
  if (q !== null) {
    const found = await search({ venueId, status: status ?? undefined, search: searchPrefixes(q) }, total, params, {
      offset,
      limit,
    });
    return { success: true, data: await recordsOf(found.ids), pagination: pagination(found.total) };
  }
  if (offset === 0) {
    const range = `FROM hotspot_user_venues WHERE venue_id = ?${byStatus}
       ORDER BY user_created_at DESC, user_id DESC LIMIT ? OFFSET 0`;
    const rows = await db.all(
      `SELECT ${USER_ROW_COLUMNS}, p.user_created_at AS page_key, ${total} AS total
       FROM (SELECT user_id, user_created_at ${range}) p JOIN hotspot_users u ON u.id = p.user_id
       LEFT JOIN hotspot_user_venues v ON v.user_id = u.id
       UNION ALL
       SELECT ${DEVICE_ROW_COLUMNS}, NULL, NULL FROM (SELECT user_id ${range}) p JOIN devices d ON d.user_id = p.user_id`,
      [...params, ...params, ...params, limit, ...params, limit],
    );
    const keys = new Map(rows.filter((row) => row.page_key !== null).map((row) => [row.id, String(row.page_key)]));
    const ids = [...keys].sort(([a, aKey], [b, bKey]) => (aKey === bKey ? (a < b ? 1 : -1) : aKey < bKey ? 1 : -1));
    const data = shownOf(
      rows,
      ids.map(([id]) => id),
    );
    return { success: true, data, pagination: pagination(Number(rows.find((row) => row.total !== null)?.total ?? 0)) };
  }
  const buckets = await db.all(
    `SELECT bucket, SUM(n) AS n FROM (
       SELECT bucket, user_count AS n FROM venue_user_buckets WHERE venue_id = ?${byStatus}
       UNION ALL SELECT bucket, delta FROM venue_user_count_changes WHERE venue_id = ?${byStatus}
     ) b GROUP BY bucket ORDER BY bucket DESC`,
    [...params, ...params],
  );
  let skipped = 0;
  let before = null;
  for (const { bucket, n } of buckets) {
    if (skipped + Number(n) > offset) {
      before = new Date((Number(bucket) + 1) * PAGE_BUCKET_MS);
      break;
    }
    skipped += Number(n);
  }
  const rows = await db.all(
    `SELECT user_id, ${total} AS total FROM hotspot_user_venues WHERE venue_id = ?${byStatus} AND user_created_at < ?
     ORDER BY user_created_at DESC, user_id DESC LIMIT ? OFFSET ?`,
    [
      ...params,
      ...params,
      ...params,
      (before ?? new Date(0)).toISOString().slice(0, 23).replace('T', ' '),
      limit,
      offset - skipped,
    ],
  );
  const data = await recordsOf(rows.map((row) => row.user_id));
  return { success: true, data, pagination: pagination(Number(rows[0]?.total ?? 0)) };
}

/**
 * A search's page ids and total as the service reads them (findVenuePageBySearch): each branch's users
 * counted in one statement; when one branch alone finds anyone, its page from its own range (a common
 * name word's by walking newest first), otherwise the union of those that do.
 */
async function search(filter, venueTotal, venueParams, page) {
  const branches = searchBranches(filter, dialect);
  if (branches.length === 0) return { ids: [], total: 0 };
  const words = branches.some((branch) => branch.newestFirst !== undefined);
  const [counts] = await db.all(
    `SELECT ${branches.map((branch, i) => `(SELECT ${branch.counted} ${branch.rows}) AS c${i}`).join(', ')}${
      words ? `, ${venueTotal} AS venue_users` : ''
    }`,
    [...branches.flatMap((branch) => branch.params), ...(words ? [...venueParams, ...venueParams] : [])],
  );
  const found = branches.map((branch, i) => ({ branch, users: Number(counts[`c${i}`]) })).filter((b) => b.users > 0);
  if (found.length === 0) return { ids: [], total: 0 };
  if (found.length > 1) {
    const { sql, params } = unitedMatches(
      found.map(({ branch }) => branch),
      null,
    );
    const rows = await db.all(
      `SELECT user_id, COUNT(*) OVER () AS total FROM (${sql}) m
       ORDER BY user_created_at DESC, user_id DESC LIMIT ? OFFSET ?`,
      [...params, page.limit, page.offset],
    );
    return { ids: rows.map((row) => row.user_id), total: Number(rows[0]?.total ?? 0) };
  }
  const [{ branch, users }] = found;
  const walks = branch.newestFirst !== undefined && walksNewestFirst(users, Number(counts.venue_users), page);
  const rows = await db.all(
    `SELECT uv.user_id ${walks ? branch.newestFirst : branch.rows}
     ${branch.repeats ? 'GROUP BY uv.user_created_at, uv.user_id' : ''}
     ORDER BY uv.user_created_at DESC, uv.user_id DESC LIMIT ? OFFSET ?`,
    [...branch.params, page.limit, page.offset],
  );
  return { ids: rows.map((row) => row.user_id), total: users };
}

async function answer(request) {
  if (request.headers.authorization !== `Bearer ${token}`) return [401, { success: false }];
  const url = new URL(request.url, 'http://bench');
  if (url.pathname === '/api/v1') return [200, { success: true, message: 'Server API aktif' }];
  if (url.pathname === '/api/v1/hotspot-users') return [200, await list(url.searchParams)];
  const id = /^\/api\/v1\/hotspot-users\/([^/]+)$/.exec(url.pathname)?.[1];
  if (id === undefined) return [404, { success: false }];
  const [user] = await recordsOf([decodeURIComponent(id)]);
  return user === undefined ? [404, { success: false }] : [200, { success: true, data: user }];
}

createServer((request, response) => {
  answer(request).then(
    ([status, body]) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(body));
    },
    (error) => {
      response.writeHead(500).end();
      console.error(error);
    },
  );
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
