// The benchmark's workloads. Each names the requests, the statuses it expects, and which yardstick
// (bare node:http + SQL handler, or minimal Nest app) runs the same requests beside the service.
import { BENCH_PASSWORD, deviceMac, hasDevice, HOT_VENUE, smallVenue, SURNAMES, userId, VENUE_SIZE } from './seed.mjs';

const USERS = '/api/v1/hotspot-users';

/**
 * Users n with n ≡ residue (mod 10), among the first `pool` of them, picked at random: each write
 * workload owns its residue, so they never meet.
 */
function randomUser(users, residue, pool = users) {
  const tens = Math.floor((Math.min(users, pool * 10) - residue) / 10);
  return () => userId(10 * Math.floor(Math.random() * (tens + 1)) + residue);
}

function cycling(build) {
  let i = 0;
  return () => build(i++);
}

/** rlm_rest's JSON: each attribute an object with its type and values. */
function rlmBody(attributes) {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [
      name,
      { type: typeof value === 'number' ? 'integer' : 'string', value: [value] },
    ]),
  );
}

/** Active users of the NAS's venue (venue-0000) that no write workload touches. */
const RADIUS_USERS = Array.from({ length: 50 }, (_, k) => 10 * k + 3).filter((n) => n % 7 !== 3);

/** Concurrent logins and packets of the RADIUS workloads, whatever --connections says: the load the login target is set at (50 concurrent logins). */
const RADIUS_CONNECTIONS = 50;

/**
 * The RADIUS back end's workloads, when the service has it: `radius` holds the NAS's name and address,
 * a token with the radius permission, and the prefix of this run's accounting session ids.
 */
export function radiusWorkloads(radius) {
  const headers = (section) => ({
    'x-radius-client': radius.nasName,
    'x-radius-client-ip': radius.nasIp,
    'x-freeradius-section': section,
  });
  return [
    {
      name: 'radius-authorize',
      title: 'POST /radius/authorize (PAP, argon2id)',
      yardstick: null,
      connections: RADIUS_CONNECTIONS,
      expected: [200],
      request: cycling((i) => ({
        method: 'POST',
        path: '/radius/authorize',
        token: radius.token,
        headers: headers('authorize'),
        body: rlmBody({ 'User-Name': `u${RADIUS_USERS[i % RADIUS_USERS.length]}`, 'User-Password': BENCH_PASSWORD }),
      })),
    },
    {
      name: 'radius-accounting',
      title: 'POST /radius/accounting (Interim-Update)',
      yardstick: null,
      connections: RADIUS_CONNECTIONS,
      expected: [204],
      request: cycling((i) => {
        const n = RADIUS_USERS[i % RADIUS_USERS.length];
        return {
          method: 'POST',
          path: '/radius/accounting',
          token: radius.token,
          headers: headers('accounting'),
          body: rlmBody({
            'Acct-Status-Type': 'Interim-Update',
            'Acct-Session-Id': `${radius.sessionPrefix}-${n}`,
            'User-Name': `u${n}`,
            'Calling-Station-Id': `02-00-00-00-00-${(n % 256).toString(16).padStart(2, '0')}`,
            'Framed-IP-Address': `10.0.0.${n % 250}`,
            'Acct-Session-Time': i,
            'Acct-Input-Octets': i * 1000,
            'Acct-Output-Octets': i * 2000,
          }),
        };
      }),
    },
  ];
}

/** Searches of the users screen and of the v1 list (`q`) in the hot venue: a phone and a name prefix. */
export const SEARCH = { phone: '+90 512', name: 'guest 12' };

/**
 * A front desk's searches in the hot venue (`q`), one per request in turn: a surname alone, typed
 * without its accents (one user in 20 has each); the last 4 digits of a phone (about 1 user in 10,000
 * of all, each of the hot venue); the last 4 hex digits of the MAC of a random device of the hot venue.
 */
function deskSearches(users) {
  const hotDevices = [];
  for (let n = 7; n <= users && hotDevices.length < 1000; n += 10) if (hasDevice(n)) hotDevices.push(n);
  return {
    surname: cycling((i) => SURNAMES[i % SURNAMES.length][1]),
    phoneEnd: cycling((i) => `${String((i * 37) % 1000).padStart(3, '0')}7`),
    macEnd: cycling((i) =>
      deviceMac(hotDevices[(i * 7919) % hotDevices.length])
        .slice(-5)
        .replace(':', '')
        .toLowerCase(),
    ),
  };
}

/**
 * Concurrent requests of the console workloads, whatever --connections says: pages people ask for
 * (the users search sends one request per pause in typing), so 8 at once stands for a busy chain's
 * front desks; the API's search is measured at --connections like the other list workloads.
 */
const CONSOLE_CONNECTIONS = 8;

/**
 * The console's workloads: `session` is the cookie of an operator of the hot venue (read
 * permission) signed in through the console's forms, sent as a browser would.
 */
export function consoleWorkloads(session, users) {
  const hotUser = randomUser(users, 7, 100);
  const page = (path) => () => ({ method: 'GET', path, headers: { cookie: session } });
  return [
    {
      name: 'dashboard',
      title: `console dashboard, ${users / 10}-user venue`,
      yardstick: null,
      connections: CONSOLE_CONNECTIONS,
      expected: [200],
      request: page(`/admin?venueId=${HOT_VENUE}`),
    },
    {
      name: 'console-users',
      title: `console users page, ${HOT_VENUE} venue, page 1 (no vouchers, who is online)`,
      yardstick: null,
      connections: CONSOLE_CONNECTIONS,
      expected: [200],
      request: page(`/admin/users?venueId=${HOT_VENUE}`),
    },
    {
      name: 'console-users-search',
      title: `console users page, ${HOT_VENUE} venue, q=${SEARCH.phone}`,
      yardstick: null,
      connections: CONSOLE_CONNECTIONS,
      expected: [200],
      request: page(`/admin/users?venueId=${HOT_VENUE}&q=${encodeURIComponent(SEARCH.phone)}`),
    },
    {
      name: 'console-user-page',
      title: `console user's page, ${HOT_VENUE} venue`,
      yardstick: null,
      connections: CONSOLE_CONNECTIONS,
      expected: [200],
      request: () => page(`/admin/users/${hotUser()}?venueId=${HOT_VENUE}`)(),
    },
    {
      // The whole venue as CSV, written a page at a time as it is read: the RSS columns show it is never held at once.
      name: 'console-users-export',
      title: `console users export (CSV), ${users / 10}-user venue`,
      yardstick: null,
      connections: 2,
      expected: [200],
      request: page(`/admin/users/export.csv?venueId=${HOT_VENUE}`),
    },
  ];
}

/** The desk's searches of the v1 list (deskSearches), each a workload at --connections like the other searches. */
function deskSearchWorkloads(users) {
  const searches = deskSearches(users);
  const search = (name, next, what) => ({
    name,
    title: `list, ${users / 10}-user venue, q=${what}`,
    yardstick: 'bare',
    openLoop: true,
    expected: [200],
    request: () => ({ method: 'GET', path: `${USERS}?venueId=${HOT_VENUE}&q=${encodeURIComponent(next())}` }),
  });
  return [
    search('users-search-surname', searches.surname, 'a surname (yilmaz, kaya, …; 1 in 20 of the venue)'),
    search('users-search-phone-end', searches.phoneEnd, "a phone's last 4 digits (0007, 0377, …)"),
    search('users-search-mac-end', searches.macEnd, "a device MAC's last 4 hex digits"),
  ];
}

/**
 * @param users how many users were seeded
 * @returns workloads: { name, title, yardstick: 'bare' | 'nest' | null, expected: number[], request(), connections? }
 *   (`connections`, when set, overrides --connections)
 */
export function workloads(users) {
  const hotPages = Math.floor(users / 10 / 20);
  const deepPage = Math.min(2000, hotPages);
  const smallVenues = Math.max(1, Math.floor((users - users / 10) / VENUE_SIZE));
  // Reads measure the service, not the disk: a set of users and a venue small enough to stay in the buffer pool.
  const getUser = randomUser(users, 1, 100);
  const putUser = randomUser(users, 2);
  const expireUser = randomUser(users, 4);
  return [
    {
      name: 'status',
      title: 'GET /api/v1',
      yardstick: 'nest',
      expected: [200],
      request: () => ({ method: 'GET', path: '/api/v1' }),
    },
    {
      name: 'list-small',
      openLoop: true,
      title: `list, ${VENUE_SIZE}-user venue, page 1`,
      yardstick: 'bare',
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}?venueId=${smallVenue(0)}` }),
    },
    {
      name: 'list-hot',
      openLoop: true,
      title: `list, ${users / 10}-user venue, page 1`,
      yardstick: 'bare',
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}?venueId=${HOT_VENUE}` }),
    },
    {
      name: 'list-hot-blocked',
      title: `list, ${users / 10}-user venue, status=blocked, limit 100`,
      yardstick: 'bare',
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}?venueId=${HOT_VENUE}&status=blocked&limit=100` }),
    },
    {
      name: 'list-hot-guests',
      title: `list, ${users / 10}-user venue, batchAccounts=exclude, page 1`,
      yardstick: null,
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}?venueId=${HOT_VENUE}&batchAccounts=exclude` }),
    },
    {
      name: 'get',
      openLoop: true,
      title: 'get one user',
      yardstick: 'bare',
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}/${getUser()}` }),
    },
    {
      name: 'list-hot-deep',
      openLoop: true,
      title: `list, ${users / 10}-user venue, page ${deepPage}`,
      yardstick: 'bare',
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}?venueId=${HOT_VENUE}&page=${deepPage}` }),
    },
    {
      name: 'users-search-phone',
      openLoop: true,
      title: `list, ${users / 10}-user venue, q=${SEARCH.phone} (phone prefix)`,
      yardstick: 'bare',
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}?venueId=${HOT_VENUE}&q=${encodeURIComponent(SEARCH.phone)}` }),
    },
    {
      name: 'users-search-name',
      openLoop: true,
      title: `list, ${users / 10}-user venue, q=${SEARCH.name} (name prefix)`,
      yardstick: 'bare',
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}?venueId=${HOT_VENUE}&q=${encodeURIComponent(SEARCH.name)}` }),
    },
    ...deskSearchWorkloads(users),
    {
      name: 'create-guest',
      title: 'create guest',
      yardstick: null,
      expected: [201],
      request: cycling((i) => ({
        method: 'POST',
        path: USERS,
        body: { name: `Bench guest ${i}`, loginMethod: 'guest', venueIds: [smallVenue(i % smallVenues)] },
      })),
    },
    {
      name: 'put',
      title: 'PUT (rename)',
      yardstick: null,
      expected: [200],
      request: cycling((i) => ({ method: 'PUT', path: `${USERS}/${putUser()}`, body: { name: `Renamed ${i}` } })),
    },
    {
      name: 'expire',
      title: 'POST expire',
      yardstick: null,
      expected: [200],
      request: () => ({ method: 'POST', path: `${USERS}/${expireUser()}/expire` }),
    },
  ];
}

/**
 * The cost of metrics: the same requests on a second service with METRICS_PORT set (and scraped
 * every second while measured), against the service without metrics as the yardstick.
 */
export function metricsWorkloads() {
  return [
    {
      name: 'metrics-status',
      title: 'GET /api/v1, metrics on (yardstick: metrics off)',
      side: 'metrics',
      yardstick: 'plain',
      expected: [200],
      request: () => ({ method: 'GET', path: '/api/v1' }),
    },
    {
      name: 'metrics-list',
      title: `list, ${VENUE_SIZE}-user venue, page 1, metrics on (yardstick: metrics off)`,
      side: 'metrics',
      yardstick: 'plain',
      expected: [200],
      request: () => ({ method: 'GET', path: `${USERS}?venueId=${smallVenue(0)}` }),
    },
  ];
}
