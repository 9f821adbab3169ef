// The yardstick: a minimal node:http handler issuing the same SQL the service issues for the read
// workloads (status, list, get), with a fixed bearer token and nothing else (no validation, logs,
// headers or error handling). Run as a child process by bench/run.mjs:
//   node bench/servers/bare.mjs PORT TOKEN mysql://…|sqlite:PATH [POOL_SIZE]
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { createServer } from 'node:http';

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
const placeholders = (values) => values.map(() => '?').join(', ');

/** Users with their venues and devices in one statement, as the service reads them. */
async function recordsOf(ids) {
  if (ids.length === 0) return [];
  const list = placeholders(ids);
  const rows = await db.all(
    `SELECT u.id, u.name, u.username, u.email, u.phone, u.mac_address, u.login_method, u.status,
       u.password_hash, u.expires_at, u.metadata, u.created_at, u.updated_at, u.version,
       v.venue_id, v.position, NULL AS device_id, NULL AS device_mac, NULL AS device_name,
       NULL AS device_status, NULL AS first_seen_at, NULL AS last_seen_at
     FROM hotspot_users u LEFT JOIN hotspot_user_venues v ON v.user_id = u.id
     WHERE u.id IN (${list})
     UNION ALL
     SELECT d.user_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       d.id, d.mac_address, d.name, d.status, d.first_seen_at, d.last_seen_at
     FROM devices d WHERE d.user_id IN (${list})`,
    [...ids, ...ids],
  );
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

/** The page's ids from the list index (starting at the bucket that holds the offset), with the total from the counters alongside. */
async function list(query) {
  const venueId = query.get('venueId');
  const status = query.get('status');
  const page = Number(query.get('page') ?? 1);
  const limit = Number(query.get('limit') ?? 20);
  const byStatus = status === null ? '' : ' AND user_status = ?';
  const params = status === null ? [venueId] : [venueId, status];
  const offset = (page - 1) * limit;
  let skipped = 0;
  let before = null;
  if (offset > 0) {
    const buckets = await db.all(
      `SELECT bucket, SUM(user_count) AS n FROM venue_user_buckets WHERE venue_id = ?${byStatus}
       GROUP BY bucket ORDER BY bucket DESC`,
      params,
    );
    for (const { bucket, n } of buckets) {
      if (skipped + Number(n) > offset) {
        before = new Date((Number(bucket) + 1) * PAGE_BUCKET_MS);
        break;
      }
      skipped += Number(n);
    }
  }
  const until = before === null ? '' : ' AND user_created_at < ?';
  const rows = await db.all(
    `SELECT user_id,
       (SELECT COALESCE(SUM(user_count), 0) FROM venue_user_counts WHERE venue_id = ?${byStatus}) AS total
     FROM hotspot_user_venues WHERE venue_id = ?${byStatus}${until}
     ORDER BY user_created_at DESC, user_id DESC LIMIT ? OFFSET ?`,
    [
      ...params,
      ...params,
      ...(before === null ? [] : [before.toISOString().slice(0, 23).replace('T', ' ')]),
      limit,
      offset - skipped,
    ],
  );
  const data = await recordsOf(rows.map((row) => row.user_id));
  const count = Number(rows[0]?.total ?? 0);
  return { success: true, data, pagination: { page, limit, total: count, pages: Math.ceil(count / limit) } };
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
