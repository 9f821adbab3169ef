// The performance targets a full run is held to, checked against its results. See bench/README.md.

/** RSS the service must stay under through a run, and how much a second soak run may end above the first. */
const RSS_LIMIT_MB = 250;
const SOAK_GROWTH_MB = 10;

/**
 * Each target: what it is about (a workload's service p99, req/s or ratio to its yardstick, on
 * MariaDB with 1,000,000 users), its limit, and whether higher or lower is better.
 */
const WORKLOAD_TARGETS = [
  { workload: 'get', measure: 'ratio', limit: 0.5, unit: '', text: 'get one user, ratio to the bare handler' },
  { workload: 'list-small', measure: 'ratio', limit: 0.7, unit: '', text: 'list of a 1,000-user venue, ratio to bare' },
  { workload: 'status', measure: 'ratio', limit: 0.8, unit: '', text: 'GET /api/v1, ratio to the minimal Nest app' },
  {
    workload: 'users-search-phone',
    measure: 'p99',
    limit: 100,
    unit: 'ms',
    text: 'search (q) of the 100,000-user venue by a phone prefix, p99',
  },
  { workload: 'users-search-name', measure: 'p99', limit: 100, unit: 'ms', text: 'the same by a name prefix, p99' },
  { workload: 'users-search-surname', measure: 'p99', limit: 100, unit: 'ms', text: 'the same by a surname, p99' },
  {
    workload: 'users-search-phone-end',
    measure: 'p99',
    limit: 100,
    unit: 'ms',
    text: "the same by a phone's last 4 digits, p99",
  },
  {
    workload: 'users-search-mac-end',
    measure: 'p99',
    limit: 100,
    unit: 'ms',
    text: "the same by a MAC's last 4 hex digits, p99",
  },
  {
    workload: 'console-users-search',
    measure: 'p99',
    limit: 100,
    unit: 'ms',
    text: 'the console users page searching that venue, p99 at 8 connections',
  },
  { workload: 'radius-authorize', measure: 'p99', limit: 100, unit: 'ms', text: 'authorize, p99 at 50 logins' },
  {
    workload: 'dashboard',
    measure: 'p99',
    limit: 100,
    unit: 'ms',
    text: 'console dashboard of the 100,000-user venue, p99',
  },
  {
    workload: 'console-user-page',
    measure: 'p99',
    limit: 100,
    unit: 'ms',
    text: "a user's page in the console, p99",
  },
  {
    workload: 'metrics-status',
    measure: 'ratio',
    limit: 0.95,
    unit: '',
    text: 'GET /api/v1 with metrics on, ratio to the same service without',
  },
  {
    workload: 'metrics-list',
    measure: 'ratio',
    limit: 0.95,
    unit: '',
    text: 'list of a 1,000-user venue with metrics on, ratio to the same service without',
  },
  ...['list-small', 'list-hot', 'get', 'list-hot-deep'].map((workload) => ({
    workload,
    measure: 'openLoopP99Ratio',
    limit: 1.5,
    unit: '×',
    text: `${workload} at half the bare handler's maximum (open loop), p99 to the bare handler's p99`,
  })),
  { workload: 'radius-accounting', measure: 'rps', limit: 2000, unit: '/s', text: 'accounting, Interim-Updates' },
];

function valueOf(row, measure) {
  if (measure === 'ratio') return row.ratio;
  // A rate one side could not sustain measures its queue, not its latency: not met, whatever the ratio.
  if (measure === 'openLoopP99Ratio')
    return row.openLoop === undefined ? null : row.openLoop.sustained ? row.openLoop.p99Ratio : Infinity;
  return row.service[measure];
}

/**
 * The targets checked against a full run's results: one entry each, `met` null when the run has
 * nothing to check it against (a workload left out with --only, no MariaDB, no --soak).
 */
export function checkTargets(results) {
  const mysql = results.find((result) => result.database === 'mysql' && result.users >= 1_000_000);
  const checks = WORKLOAD_TARGETS.map(({ workload, measure, limit, unit, text }) => {
    const row = mysql?.rows.find((candidate) => candidate.workload === workload);
    const value = row === undefined ? null : valueOf(row, measure);
    const higherIsBetter = measure !== 'p99' && measure !== 'openLoopP99Ratio';
    const met = value === null ? null : higherIsBetter ? value >= limit : value <= limit;
    const shown = (number) => `${number}${unit === 'ms' ? ' ms' : unit}`;
    return {
      target: `${text} ${higherIsBetter ? '≥' : '≤'} ${shown(limit)}`,
      value: value === null ? null : value === Infinity ? 'rate not sustained' : shown(value),
      met,
    };
  });
  for (const result of results) {
    checks.push({
      target: `${result.database}: service RSS peak < ${RSS_LIMIT_MB} MB`,
      value: `${result.rssPeakMb} MB`,
      met: result.rssPeakMb < RSS_LIMIT_MB,
    });
    const [first, second] = result.soak ?? [];
    checks.push({
      target: `${result.database}: RSS after the second 60 s soak run ≤ the first's + ${SOAK_GROWTH_MB} MB`,
      value: second === undefined ? null : `${first.rssMb} → ${second.rssMb} MB`,
      met: second === undefined ? null : second.rssMb <= first.rssMb + SOAK_GROWTH_MB,
    });
  }
  return checks;
}

export function formatTargets(checks) {
  const verdict = (met) => (met === null ? 'not measured' : met ? 'met' : 'NOT met');
  const lines = checks.map(({ target, value, met }) => `  ${verdict(met).padEnd(12)} ${target}: ${value ?? '–'}`);
  return ['targets (MariaDB at 1,000,000 users; RSS on each database):', ...lines].join('\n');
}
