import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_ACTIONS, BATCH_FORM_INPUTS } from './batches/batches.rules.js';
import { consoleAssetsDir } from './console-assets.js';
import { STAY_CHOICES, TAKEN_FIELDS, USER_ACTIONS, USER_FORM_FIELDS, userFormInputs } from './users/users.rules.js';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, AUDIT_TARGET_TYPES } from '../audit/audit.rules.js';
import { LOGIN_METHODS, USER_STATUSES } from '../hotspot-users/entities/hotspot-user.entity.js';
import { SEARCH_MATCH_FIELDS } from '../hotspot-users/user-search.rules.js';
import { DISPATCHER_NAMES } from '../config/configuration.js';
import { LOGIN_OUTCOMES } from '../radius/entities/login-attempt.entity.js';
import { DEVICE_STATUSES } from '../sessions/entities/device.entity.js';
import { SESSION_STATUSES } from '../sessions/entities/session.entity.js';
import { DELIVERY_STATUSES } from '../unauth-jobs/delivery.js';
import { UNAUTH_REASONS } from '../unauth-jobs/entities/unauth-job.entity.js';
import { SESSION_OUTCOMES } from '../unauth-jobs/job-report.js';
import { JOB_STATES } from './network/network.rules.js';
import { LIMIT_INPUTS, PLAN_FORM_FIELDS } from './settings/plans/plan-form.rules.js';
import { USAGE_COUNTERS } from './network/usage-view.js';
import { QUOTA_PERIODS } from '../plans/plan-limits.js';
import { PORTAL_WAYS } from '../guest-access/guest-access.rules.js';
import { PORTAL_FORM_FIELDS } from './settings/venues/venue-portal.rules.js';
import { LANGUAGES } from '../web/language.js';
import { loadCatalogue } from '../web/views.js';

/** Every text the console shows comes from both catalogues: the same keys in each, and every key a view names exists. */
describe('console message catalogues', () => {
  const dir = consoleAssetsDir();
  const catalogues = LANGUAGES.map((language) => ({ language, messages: loadCatalogue(dir, language) }));

  it('have the same keys in every language, none empty', () => {
    const [first, ...others] = catalogues;
    for (const other of others) {
      expect(Object.keys(other.messages).sort()).toEqual(Object.keys(first.messages).sort());
    }
    for (const { messages } of catalogues) {
      expect(Object.entries(messages).filter(([, text]) => text.trim() === '')).toEqual([]);
    }
  });

  it("keep each screen's words beside it: every folder with a catalogue has one per language, with the same keys", () => {
    const folders = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((path) => /(^|\/)messages\.[a-z]+\.json$/.test(path))
      .map((path) => join(dir, path, '..'));
    expect(new Set(folders).size).toBeGreaterThan(10);
    for (const folder of new Set(folders)) {
      const keys = LANGUAGES.map((language) =>
        Object.keys(JSON.parse(readFileSync(join(folder, `messages.${language}.json`), 'utf8')) as object).sort(),
      );
      for (const other of keys.slice(1)) expect([folder, other]).toEqual([folder, keys[0]]);
    }
  });

  it('have the same {placeholders} in every language', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const [first, ...others] = catalogues;
    for (const other of others) {
      for (const [key, text] of Object.entries(first.messages)) {
        expect([key, placeholders(other.messages[key] ?? '')]).toEqual([key, placeholders(text)]);
      }
    }
  });

  it('have every key the views and the console code name literally', () => {
    const files = (folder: string): string[] =>
      readdirSync(folder).flatMap((name) => {
        const path = join(folder, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    const sources = files(dir).filter((path) => /\.(eta|ts)$/.test(path) && !path.endsWith('.spec.ts'));
    const named = new Set<string>();
    for (const path of sources) {
      const text = readFileSync(path, 'utf8');
      for (const match of text.matchAll(/\bt\('([a-zA-Z0-9_.-]+)'/g)) named.add(match[1]);
    }
    expect(named.size).toBeGreaterThan(20);
    const messages = catalogues[0].messages;
    expect([...named].filter((key) => !(key in messages))).toEqual([]);
  });

  it('have every key the console names anywhere: refusals, problems and notices passed as values too', () => {
    // A quoted text of a catalogue's namespaces (`'error.forbidden'`, `{ key: 'signin.wait' }`) is a key,
    // except the first argument of it.key(prefix, name), which is the stem of keys built at run time.
    const messages = catalogues[0].messages;
    const namespaces = new Set(Object.keys(messages).map((key) => key.split('.')[0]));
    const files = (folder: string): string[] =>
      readdirSync(folder).flatMap((name) => {
        const path = join(folder, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    const missing: string[] = [];
    let checked = 0;
    for (const path of files(dir).filter((file) => /\.(eta|ts)$/.test(file) && !file.endsWith('.spec.ts'))) {
      const text = readFileSync(path, 'utf8');
      for (const match of text.matchAll(/(key\(\s*)?['"]([a-zA-Z][a-zA-Z0-9-]*(?:\.[a-zA-Z0-9_-]+)+)['"]/g)) {
        const [, stem, key] = match;
        if (stem !== undefined || !namespaces.has(key.split('.')[0]) || /\.(js|css|eta|json|png|svg)$/.test(key))
          continue;
        checked += 1;
        if (!(key in messages)) missing.push(`${key} (${path})`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});

/** Every page a console controller renders by name is a template of its screen's folder. */
describe('console views', () => {
  it('exist for every view name a controller renders', () => {
    const dir = consoleAssetsDir();
    const controllers = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) =>
      path.endsWith('.controller.ts'),
    );
    const named = controllers.flatMap((path) =>
      [...readFileSync(join(dir, path), 'utf8').matchAll(/render\([^;]*?'([a-z-]+(?:\/[a-z_-]+)+)'/g)].map(
        (match) => match[1],
      ),
    );
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((view) => !existsSync(join(dir, `${view}.eta`)))).toEqual([]);
  });
});

/**
 * Keys the templates build at run time (`it.key('users.field', name)`): every value a stem is built
 * with, from the lists the pages take them from, has its message; a stem not listed here fails.
 */
describe('console keys built at run time', () => {
  const dir = consoleAssetsDir();
  const helped = (loginMethod: string) =>
    [false, true].flatMap((editing) => userFormInputs(loginMethod, editing).filter((input) => input.help));
  const BUILT: Record<string, readonly string[]> = {
    'users.field': [...USER_FORM_FIELDS, 'other'],
    // users.rules.ts (apiFieldProblem) builds these from a v1 refusal's field.
    'users.invalid': USER_FORM_FIELDS,
    'users.taken': TAKEN_FIELDS,
    'users.help': [...helped('guest'), ...helped('username_password')].map((input) => input.name),
    'users.status': USER_STATUSES,
    'users.loginMethod': LOGIN_METHODS,
    'users.new.kind': ['guest', 'username_password'],
    'users.stay': STAY_CHOICES,
    'users.matchedBy': SEARCH_MATCH_FIELDS,
    'batches.field': BATCH_FORM_INPUTS.map(([name]) => name),
    'batches.help': BATCH_FORM_INPUTS.map(([name]) => name),
    // batches.rules.ts (batchApiProblem) builds these from a v1 refusal's field.
    'batches.invalid': [...BATCH_FORM_INPUTS.map(([name]) => name), 'prefixTaken'],
    'batches.status': USER_STATUSES,
    'audit.actionName': AUDIT_ACTIONS,
    'audit.targetName': AUDIT_TARGET_TYPES,
    'audit.actorName': AUDIT_ACTOR_TYPES,
    'jobs.statusValue': JOB_STATES,
    'jobs.reasonValue': UNAUTH_REASONS,
    'jobs.deliveryValue': DELIVERY_STATUSES,
    'jobs.dispatcherValue': DISPATCHER_NAMES,
    // network-view.ts builds these (a NAK and a session not sent have keys of their own).
    'jobs.outcome': SESSION_OUTCOMES.filter((outcome) => outcome !== 'nak' && outcome !== 'not-sent'),
    'userPage.statusValue': USER_STATUSES,
    'userPage.deviceStatus': DEVICE_STATUSES,
    'userPage.sessionStatus': SESSION_STATUSES,
    'userPage.outcome': LOGIN_OUTCOMES,
    'plans.field': [...PLAN_FORM_FIELDS, 'venueIds'],
    'plans.help': [...LIMIT_INPUTS.map((input) => input.field), 'venueIds'],
    'plans.period': QUOTA_PERIODS,
    // plan-form.rules.ts builds these from a field of the form or a v1 refusal, and from a quota's period.
    'plans.problem': [...LIMIT_INPUTS.map((input) => input.field), 'name', 'venueIds', 'quotaPeriod'],
    'plans.limit.quota': QUOTA_PERIODS,
    'net.usage.counter': USAGE_COUNTERS,
    'net.usage.period': QUOTA_PERIODS,
    'venues.portal.way': PORTAL_WAYS,
    'venues.portal.field': ['colourAccent', 'colourBackground', 'colourText'],
    // venue-portal.rules.ts and its controller build these from a field of the form.
    'venues.portal.problem': PORTAL_FORM_FIELDS,
  };
  /** Stems of a confirmation page: `<stem>.<action>.title|what|submit`. */
  const ACTIONS: Record<string, readonly string[]> = {
    users: Object.keys(USER_ACTIONS),
    batches: BATCH_ACTIONS,
  };

  it('has a message for every value of every stem, in every language', () => {
    const wanted = [
      ...Object.entries(BUILT).flatMap(([stem, values]) => values.map((value) => `${stem}.${value}`)),
      ...Object.entries(ACTIONS).flatMap(([stem, actions]) =>
        actions.flatMap((action) => ['title', 'what', 'submit'].map((part) => `${stem}.${action}.${part}`)),
      ),
    ];
    expect(wanted.length).toBeGreaterThan(40);
    for (const language of LANGUAGES) {
      const catalogue = loadCatalogue(dir, language);
      expect([language, wanted.filter((key) => !(key in catalogue))]).toEqual([language, []]);
    }
  });

  it('knows every stem a template builds keys from', () => {
    const stems = new Set<string>();
    for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.eta'),
    )) {
      for (const match of readFileSync(join(dir, path), 'utf8').matchAll(/\bkey\('([a-zA-Z.]+)',\s*([^,)]+)(,)?/g)) {
        stems.add(match[3] === undefined ? match[1] : `${match[1]} (action)`);
      }
    }
    const known = [...Object.keys(BUILT), ...Object.keys(ACTIONS).map((stem) => `${stem} (action)`)];
    expect([...stems].filter((stem) => !known.includes(stem))).toEqual([]);
    expect(stems.size).toBeGreaterThan(8);
  });

  it('sees every key a template builds: none is a template literal, which the stems above would miss', () => {
    const literal: string[] = [];
    for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.eta'),
    )) {
      for (const match of readFileSync(join(dir, path), 'utf8').matchAll(/\bt\(\s*`[^`]*`/g)) {
        literal.push(`${path}: ${match[0]}`);
      }
    }
    expect(literal).toEqual([]);
  });
});
