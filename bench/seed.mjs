// Fills a migrated, empty database with the benchmark's shape in a few set-based statements (no
// statement per user): a numbers table, then INSERT … SELECT from it into each table.
//
// Shape, for `users` users: a tenth of them in the venue HOT_VENUE, the rest in venues of
// VENUE_SIZE users (`venue-0000`, `venue-0001`, …). Every user has a name (`Guest <n> <surname>`, one
// of SURNAMES in turn), a username (`u<n>`), a phone (`+90 5<n>`) and the password BENCH_PASSWORD; one
// in seven is blocked; about one in five has a device.

export const HOT_VENUE = 'hot';
export const VENUE_SIZE = 1000;
export const BENCH_PASSWORD = 'bench-password';

/** The i-th user's id: 36 characters, time-ordered like the service's own ids. */
export function userId(n) {
  return `01900000-0000-7000-8000-${n.toString(16).toUpperCase().padStart(12, '0')}`;
}

/**
 * The surnames of the seeded names, as typed and folded (as the service folds them): user n has the
 * ((n div 10) mod 20)-th, so each is the surname of one user in 20 of every venue (5,000 of the
 * 100,000-user venue), about what the commonest Turkish surname is to a big hotel's guests.
 */
export const SURNAMES = [
  ['Yılmaz', 'yilmaz'],
  ['Kaya', 'kaya'],
  ['Demir', 'demir'],
  ['Şahin', 'sahin'],
  ['Çelik', 'celik'],
  ['Yıldız', 'yildiz'],
  ['Yıldırım', 'yildirim'],
  ['Öztürk', 'ozturk'],
  ['Aydın', 'aydin'],
  ['Özdemir', 'ozdemir'],
  ['Arslan', 'arslan'],
  ['Doğan', 'dogan'],
  ['Kılıç', 'kilic'],
  ['Aslan', 'aslan'],
  ['Çetin', 'cetin'],
  ['Kara', 'kara'],
  ['Koç', 'koc'],
  ['Kurt', 'kurt'],
  ['Özkan', 'ozkan'],
  ['Şimşek', 'simsek'],
];

/** User n's surname as SQL (`d` the dialect), typed (`folded` false) or folded. */
function surnameSql(d, folded) {
  return `CASE ${d.div('n', 10)} % ${SURNAMES.length} ${SURNAMES.map(([typed, key], i) => `WHEN ${i} THEN '${folded ? key : typed}'`).join(' ')} END`;
}

/** User n's device MAC, as the seed writes it (`02:` and n in 10 hex digits), for the MAC workloads. */
export function deviceMac(n) {
  const hex = n.toString(16).toUpperCase().padStart(10, '0');
  return `02:${hex.match(/../g).join(':')}`;
}

/** Whether user n has a device (the seed's rule). */
export function hasDevice(n) {
  return Math.floor(n / 3) % 5 === 0;
}

export function smallVenue(index) {
  return `venue-${String(index).padStart(4, '0')}`;
}

/** Users 1..n: the hot venue holds n ≡ 7 (mod 10); the k-th of the others goes to venue k / VENUE_SIZE. */
export function venueOf(n) {
  if (n % 10 === 7) return HOT_VENUE;
  const k = n - Math.floor((n + 3) / 10) - 1;
  return smallVenue(Math.floor(k / VENUE_SIZE));
}

// SQL fragments over a numbers column `n`, one per dialect. They must agree with venueOf and userId.
const DIALECT = {
  mysql: {
    id: (prefix) => `CONCAT('${prefix}', LPAD(HEX(n), 12, '0'))`,
    createdAt: `TIMESTAMPADD(SECOND, n, '2025-01-01 00:00:00')`,
    smallVenue: `CONCAT('venue-', LPAD((n - FLOOR((n + 3) / 10) - 1) DIV ${VENUE_SIZE}, 4, '0'))`,
    mac: `CONCAT('02:', SUBSTR(LPAD(HEX(n), 10, '0'), 1, 2), ':', SUBSTR(LPAD(HEX(n), 10, '0'), 3, 2), ':',
      SUBSTR(LPAD(HEX(n), 10, '0'), 5, 2), ':', SUBSTR(LPAD(HEX(n), 10, '0'), 7, 2), ':', SUBSTR(LPAD(HEX(n), 10, '0'), 9, 2))`,
    concat: (...parts) => `CONCAT(${parts.join(', ')})`,
    div: (a, b) => `(${a}) DIV ${b}`,
    reversed: (column) => `REVERSE(${column})`,
  },
  sqlite: {
    id: (prefix) => `'${prefix}' || printf('%012X', n)`,
    createdAt: `strftime('%Y-%m-%d %H:%M:%f', '2025-01-01 00:00:00', '+' || n || ' seconds')`,
    smallVenue: `'venue-' || printf('%04d', (n - ((n + 3) / 10) - 1) / ${VENUE_SIZE})`,
    mac: `'02:' || substr(printf('%010X', n), 1, 2) || ':' || substr(printf('%010X', n), 3, 2) || ':' ||
      substr(printf('%010X', n), 5, 2) || ':' || substr(printf('%010X', n), 7, 2) || ':' || substr(printf('%010X', n), 9, 2)`,
    concat: (...parts) => parts.join(' || '),
    div: (a, b) => `(${a}) / ${b}`,
    // SQLite has no REVERSE: a value of at most 17 characters, one character at a time.
    reversed: (column) => Array.from({ length: 17 }, (_, i) => `substr(${column}, ${17 - i}, 1)`).join(' || '),
  },
};

/**
 * The statements that seed `users` users; `passwordHash` is the stored hash of BENCH_PASSWORD.
 * `numbers` is a table with a column `n` holding 1..users. `hasSearch`: the venue rows have the
 * list's search keys (name, username and phone folded as the service folds them); `hasDeskSearch`:
 * the name words, a phone's and a MAC's keys backwards (the DeskSearch migration) too. `allHot`:
 * every user in HOT_VENUE.
 */
function seedStatements(dialect, users, passwordHash, numbers, hasSearch, hasDeskSearch, allHot = false) {
  const d = DIALECT[dialect];
  const status = `CASE WHEN n % 7 = 3 THEN 'blocked' ELSE 'active' END`;
  const venue = allHot ? `'${HOT_VENUE}'` : `CASE WHEN n % 10 = 7 THEN '${HOT_VENUE}' ELSE ${d.smallVenue} END`;
  const range = `FROM ${numbers} WHERE n <= ${users}`;
  return [
    `INSERT INTO hotspot_users (id, name, username, email, phone, mac_address, login_method, status, password_hash,
       expires_at, metadata, created_at, updated_at)
     SELECT ${d.id('01900000-0000-7000-8000-')}, ${d.concat(`'Guest '`, 'n', `' '`, surnameSql(d, false))}, ${d.concat(`'u'`, 'n')}, NULL,
       ${d.concat(`'+90 5'`, 'n')}, NULL,
       'username_password', ${status}, '${passwordHash}', NULL, '{}', ${d.createdAt}, ${d.createdAt}
     ${range} ORDER BY n`,
    `INSERT INTO hotspot_user_venues (user_id, venue_id, position, user_status, user_created_at, username_key, email_key,
       phone_key${hasSearch ? ', search_name, search_username, search_email, search_phone' : ''})
     SELECT ${d.id('01900000-0000-7000-8000-')}, ${venue}, 0, ${status}, ${d.createdAt}, ${d.concat(`'u'`, 'n')}, NULL,
       ${d.concat(`'+905'`, 'n')}${hasSearch ? `, ${d.concat(`'guest '`, 'n', `' '`, surnameSql(d, true))}, ${d.concat(`'u'`, 'n')}, NULL, ${d.concat(`'905'`, 'n')}` : ''}
     ${range} ORDER BY n`,
    `INSERT INTO devices (id, user_id, mac_address, name, status, first_seen_at, last_seen_at)
     SELECT ${d.id('01900000-0000-7000-9000-')}, ${d.id('01900000-0000-7000-8000-')}, ${d.mac}, NULL, 'active',
       ${d.createdAt}, ${d.createdAt}
     ${range} AND ${d.div('n', 3)} % 5 = 0 ORDER BY n`,
    ...(hasDeskSearch ? deskSearchStatements(d) : []),
  ];
}

/**
 * The DeskSearch keys: each name's words after the first, read from the venue row's folded name
 * (`guest <n> <surname>` gives `<n> <surname>` and `<surname>`), a phone and a MAC backwards. Each
 * statement reads one table (no join on a computed id, which MySQL could not look up by index).
 */
function deskSearchStatements(d) {
  const tail = 'SUBSTR(search_name, 7)';
  const words = (word) =>
    `INSERT INTO hotspot_user_name_words (user_id, venue_id, word, user_status, user_created_at)
     SELECT user_id, venue_id, ${word}, user_status, user_created_at FROM hotspot_user_venues`;
  return [
    words(tail),
    words(`SUBSTR(${tail}, INSTR(${tail}, ' ') + 1)`),
    `UPDATE hotspot_user_venues SET search_phone_suffix = ${d.reversed('search_phone')}`,
    `UPDATE devices SET mac_reversed = ${d.reversed('mac_address')}`,
  ];
}

/** Recomputes the venue counters (when the schema has them) from the venue rows, as their migration does. */
function countStatements(dialect, hasCounts) {
  if (!hasCounts) return [];
  const hour =
    dialect === 'mysql'
      ? "TIMESTAMPDIFF(HOUR, '1970-01-01 00:00:00', user_created_at)"
      : "CAST(strftime('%s', user_created_at) AS integer) / 3600";
  return [
    'DELETE FROM venue_user_count_changes',
    'DELETE FROM venue_user_counts',
    `INSERT INTO venue_user_counts (venue_id, user_status, user_count)
     SELECT venue_id, user_status, COUNT(*) FROM hotspot_user_venues GROUP BY venue_id, user_status`,
    'DELETE FROM venue_user_buckets',
    `INSERT INTO venue_user_buckets (venue_id, bucket, user_status, user_count)
     SELECT venue_id, ${hour} AS hour, user_status, COUNT(*) FROM hotspot_user_venues GROUP BY venue_id, hour, user_status`,
  ];
}

/** Seeds a MariaDB/MySQL database through a mysql2 connection (promise API). */
export async function seedMysql(connection, users, passwordHash) {
  await connection.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  await connection.query('CREATE TEMPORARY TABLE bench_digits (d INT NOT NULL)');
  await connection.query('INSERT INTO bench_digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)');
  await connection.query('CREATE TABLE bench_numbers (n INT NOT NULL PRIMARY KEY)');
  // Temporary tables cannot be opened twice in one statement: a cross join of six copies goes through a real one.
  await connection.query('CREATE TABLE bench_digits_copy AS SELECT d FROM bench_digits');
  const digits = Array.from({ length: 6 }, (_, i) => `bench_digits_copy d${i}`).join(' CROSS JOIN ');
  const value = Array.from({ length: 6 }, (_, i) => `d${i}.d * ${10 ** i}`).join(' + ');
  await connection.query(
    `INSERT INTO bench_numbers (n) SELECT n FROM (SELECT ${value} + 1 AS n FROM ${digits}) numbers WHERE n <= ${users}`,
  );
  await connection.query('DROP TABLE bench_digits_copy');
  const [tables] = await connection.query("SHOW TABLES LIKE 'venue_user_counts'");
  const [search] = await connection.query("SHOW COLUMNS FROM hotspot_user_venues LIKE 'search_name'");
  const [deskSearch] = await connection.query("SHOW TABLES LIKE 'hotspot_user_name_words'");
  await connection.beginTransaction();
  for (const sql of [
    ...seedStatements('mysql', users, passwordHash, 'bench_numbers', search.length > 0, deskSearch.length > 0),
    ...countStatements('mysql', tables.length > 0),
  ]) {
    await connection.query(sql);
  }
  await connection.commit();
  await connection.query('DROP TABLE bench_numbers');
  await connection.query('SET SESSION unique_checks = 1, foreign_key_checks = 1');
  await connection.query(
    `ANALYZE TABLE hotspot_users, hotspot_user_venues, devices${deskSearch.length > 0 ? ', hotspot_user_name_words' : ''}`,
  );
}

/** Seeds a SQLite file through a better-sqlite3 connection; with `allHot`, every user in HOT_VENUE. */
export function seedSqlite(db, users, passwordHash, { allHot = false } = {}) {
  const hasCounts =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'venue_user_counts'").get() !== undefined;
  const hasSearch =
    db.prepare("SELECT 1 FROM pragma_table_info('hotspot_user_venues') WHERE name = 'search_name'").get() !== undefined;
  const hasDeskSearch =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hotspot_user_name_words'").get() !==
    undefined;
  db.exec(`CREATE TEMP TABLE bench_numbers (n INTEGER PRIMARY KEY)`);
  db.exec(`WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${users})
           INSERT INTO bench_numbers (n) SELECT n FROM c`);
  db.transaction(() => {
    for (const sql of [
      ...seedStatements('sqlite', users, passwordHash, 'bench_numbers', hasSearch, hasDeskSearch, allHot),
      ...countStatements('sqlite', hasCounts),
    ]) {
      db.exec(sql);
    }
  })();
  db.exec('DROP TABLE bench_numbers');
  db.exec('ANALYZE');
}

// The chain scenario's NASes and sessions (bench/scenarios/chain.mjs), on MariaDB/MySQL.

/** Users that expire on their own during a chain run (the expiry sweep's work): n ≡ 0 (mod EXPIRING_MODULUS). */
export const EXPIRING_MODULUS = 997;

/** Whether user n is online in the chain scenario (among the first `sessions` such users): active, not expiring, n ≡ 0 or 2 (mod 5). */
export function onlineCandidate(n) {
  return n % 7 !== 3 && n % EXPIRING_MODULUS !== 0 && (n % 5 === 0 || n % 5 === 2);
}

/** One NAS per venue of `users` users: its name and its own loopback address, where its RADIUS packets come from. */
export function chainNases(users) {
  const smallVenues = Math.ceil((users - Math.floor((users + 3) / 10)) / VENUE_SIZE);
  const venues = [HOT_VENUE, ...Array.from({ length: smallVenues }, (_, index) => smallVenue(index))];
  return venues.map((venue, index) => ({
    venue,
    name: `nas-${venue}`,
    ip: `127.10.${Math.floor(index / 250)}.${(index % 250) + 1}`,
  }));
}

function nasId(index) {
  return userId(index + 1).replace('-8000-', '-c000-');
}

/** The Acct-Unique-Session-Id FreeRADIUS's acct_unique policy makes of a chain session's packets (no NAS-Identifier or NAS-Port). */
export function chainSessionKeySql(n, nasIp) {
  return `MD5(CONCAT('u', ${n}, ',s', ${n}, ',', ${nasIp}, ',,,'))`;
}

/**
 * On a database seeded with seedMysql: the NASes of chainNases (secret in clear, the CoA port of
 * the NAS simulators), `sessions` active sessions (the first `sessions` users for which
 * onlineCandidate holds, each with a device, its last accounting spread over the last interim
 * interval), users n ≡ 0 (mod EXPIRING_MODULUS) expiring over `expiryWindowSeconds` from `now`,
 * each NAS's venue in CHAIN_TIME_ZONE, and, when the schema has plans, every user on CHAIN_PLAN.
 */
export async function seedChainMysql(
  connection,
  { users, sessions, secret, coaPort, interimSeconds, expiryWindowSeconds },
) {
  const d = DIALECT.mysql;
  const nases = chainNases(users);
  await connection.query(
    `INSERT INTO nas_clients (id, venue_id, name, ip_address, secret, coa_port, vendor, require_message_authenticator,
       accepts_coa, created_at) VALUES ?`,
    [
      nases.map((nas, index) => [
        nasId(index),
        nas.venue,
        nas.name,
        nas.ip,
        `plain:${secret}`,
        coaPort,
        'mikrotik',
        1,
        1,
        new Date(),
      ]),
    ],
  );
  // Each online user with its venue's NAS, worked out here: a join on the venue expression would compare every pair.
  await connection.query(
    'CREATE TABLE bench_online (n INT NOT NULL PRIMARY KEY, nas_id VARCHAR(36) NOT NULL, nas_ip VARCHAR(15) NOT NULL, venue_id VARCHAR(64) NOT NULL)',
  );
  const nasOfVenue = new Map(nases.map((nas, index) => [nas.venue, { ...nas, id: nasId(index) }]));
  const online = [];
  for (let n = 1; n <= users && online.length < sessions; n += 1) if (onlineCandidate(n)) online.push(n);
  for (let start = 0; start < online.length; start += 10_000) {
    const rows = online.slice(start, start + 10_000).map((n) => {
      const nas = nasOfVenue.get(venueOf(n));
      return [n, nas.id, nas.ip, nas.venue];
    });
    await connection.query('INSERT INTO bench_online (n, nas_id, nas_ip, venue_id) VALUES ?', [rows]);
  }
  await connection.beginTransaction();
  await connection.query(
    `INSERT INTO sessions (id, user_id, venue_id, mac_address, ip_address, status, started_at, nas_client_id,
       accounting_unique_id, acct_session_id, user_name, calling_station_id, input_octets, output_octets, session_time,
       last_accounting_at, nas_ip_address, nas_source_ip)
     SELECT ${d.id('01900000-0000-7000-a000-')}, ${d.id('01900000-0000-7000-8000-')}, venue_id, ${d.mac},
       CONCAT('10.', (n DIV 65536) % 256, '.', (n DIV 256) % 256, '.', n % 256), 'active',
       TIMESTAMPADD(SECOND, -${interimSeconds} - n % ${interimSeconds}, UTC_TIMESTAMP(3)), nas_id,
       ${chainSessionKeySql('n', 'nas_ip')}, CONCAT('s', n), CONCAT('u', n), ${d.mac}, 0, 0, 0,
       TIMESTAMPADD(SECOND, -(n % ${interimSeconds}), UTC_TIMESTAMP(3)), nas_ip, nas_ip
     FROM bench_online ORDER BY n`,
  );
  await connection.query(
    `INSERT IGNORE INTO devices (id, user_id, mac_address, name, status, first_seen_at, last_seen_at)
     SELECT ${d.id('01900000-0000-7000-b000-')}, ${d.id('01900000-0000-7000-8000-')}, ${d.mac}, NULL, 'active',
       UTC_TIMESTAMP(3), UTC_TIMESTAMP(3)
     FROM bench_online ORDER BY n`,
  );
  await connection.query(
    `UPDATE hotspot_users SET expires_at = TIMESTAMPADD(SECOND, 60 + CONV(RIGHT(id, 12), 16, 10) % ${expiryWindowSeconds},
       UTC_TIMESTAMP(3))
     WHERE status = 'active' AND CONV(RIGHT(id, 12), 16, 10) % ${EXPIRING_MODULUS} = 0 AND id LIKE '01900000-0000-7000-8000-%'`,
  );
  await connection.query('INSERT INTO venues (id, time_zone, created_at, updated_at) VALUES ?', [
    nases.map((nas) => [nas.venue, CHAIN_TIME_ZONE, new Date(), new Date()]),
  ]);
  const [plans] = await connection.query("SHOW TABLES LIKE 'plans'");
  const plan = plans.length > 0 ? await seedChainPlan(connection, nases, interimSeconds) : null;
  await connection.commit();
  await connection.query('DROP TABLE bench_online');
  await connection.query('ANALYZE TABLE sessions, devices, nas_clients, venues, hotspot_users');
  return { nases, online, plan };
}

/** The chain's venues' time zone: each day's usage is counted in it. */
const CHAIN_TIME_ZONE = 'Europe/Istanbul';

/** The plan every chain user is on (when the schema has plans): every limit set, none reached during a run. */
export const CHAIN_PLAN = {
  id: '01900000-0000-7000-d000-000000000001',
  name: 'Chain guest 10 Mbit',
  downloadRate: 10_000_000,
  uploadRate: 2_000_000,
  // 100 GB a day: a run's Interim-Updates add a few MB a session.
  quotaBytes: 100 * 1024 ** 3,
  quotaPeriod: 'day',
  dailyTimeSeconds: 86_400,
  idleTimeoutSeconds: 600,
  maxSessions: 2,
  maxDevices: 3,
};

/**
 * CHAIN_PLAN, offered at every venue of the chain: the default plan of every venue, and the own
 * plan of the users n ≡ 1 (mod 2) (the others are on it through their venue), so that both ways of
 * being on a plan are in the measurement.
 */
async function seedChainPlan(connection, nases, interimSeconds) {
  const plan = CHAIN_PLAN;
  await connection.query(
    `INSERT INTO plans (id, name, download_rate, upload_rate, quota_bytes, quota_period, daily_time_seconds,
       total_time_seconds, idle_timeout_seconds, max_sessions, max_devices, interim_interval_seconds, created_at,
       updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))`,
    [
      plan.id,
      plan.name,
      plan.downloadRate,
      plan.uploadRate,
      plan.quotaBytes,
      plan.quotaPeriod,
      plan.dailyTimeSeconds,
      plan.idleTimeoutSeconds,
      plan.maxSessions,
      plan.maxDevices,
      interimSeconds,
    ],
  );
  await connection.query('INSERT INTO plan_venues (plan_id, venue_id, position) VALUES ?', [
    nases.map((nas, index) => [plan.id, nas.venue, index]),
  ]);
  await connection.query('UPDATE venues SET default_plan_id = ?', [plan.id]);
  await connection.query(
    `UPDATE hotspot_users SET plan_id = ?
     WHERE CONV(RIGHT(id, 12), 16, 10) % 2 = 1 AND id LIKE '01900000-0000-7000-8000-%'`,
    [plan.id],
  );
  return { ...plan, interimIntervalSeconds: interimSeconds };
}
