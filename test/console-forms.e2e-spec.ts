import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { ApiTokenEntity } from '../src/auth/entities/api-token.entity.js';
import { UserBatchEntity } from '../src/batches/entities/user-batch.entity.js';
import { newId } from '../src/common/ids.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { NasClientEntity } from '../src/nas/entities/nas-client.entity.js';
import { ConsoleFormTokenEntity } from '../src/operators/entities/console-form-token.entity.js';
import { OperatorPasskeyEntity } from '../src/operators/entities/operator-passkey.entity.js';
import { OperatorEntity } from '../src/operators/entities/operator.entity.js';
import { sha256Hex } from '../src/common/sha256.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { VenueEntity } from '../src/venues/entities/venue.entity.js';
import {
  ConsoleBrowser,
  formTokensOf,
  OPERATOR_PASSWORD,
  recoveryCodesOf,
  signInConsole,
  totpCode,
  type SignedInConsole,
} from './support/console.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { givenUser, startSession, uniqueDevice } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MINUTE = 60_000;
const SECRET_MINUTES = 10;
const A = 'forms-venue-a';
const RESULT_ID = '[0-9a-f-]{36}';

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;
const decoded = (text: string) => text.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const etagOf = (html: string) => decoded(/name="etag" value="([^"]+)"/.exec(html)?.[1] ?? '');
const textById = (html: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]+)<`).exec(html)?.[1] ?? null;

/** A pino destination that keeps the app's log in memory, to prove no secret reaches it. */
class CapturedLog {
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
  }
  get text(): string {
    return this.raw.join('');
  }
}

/**
 * Post/Redirect/Get and one-time form tokens, on both databases and two instances sharing one: every
 * form that creates or changes something answers its success with a 303 to a GET page; a form sent
 * again (a reload, a retried POST, a double click) is told "Already done" with a link and changes
 * nothing twice, also when the POSTs run at once; a form without a token of its own session is
 * refused as forged; a secret result stays on its page for its window, to its session only.
 */
describe.each(databaseKinds())('console forms: Post/Redirect/Get and one-time tokens [%s]', (kind) => {
  let database: TestDatabase;
  let one: TestApp;
  let two: TestApp;
  let admin: SignedInConsole;
  const clock = new ManualClock(new Date());
  const log = new CapturedLog();

  const rows = <T extends object>(entity: new () => T) => one.dataSource.getRepository(entity);
  const usersNamed = (name: string) => rows(HotspotUserEntity).countBy({ name });
  /** The token of the form with this action on a page (the page's own, as a browser sends it). */
  const tokenOf = (html: string, action: string) => {
    const token = formTokensOf(html).get(action);
    if (token === undefined) throw new Error(`no form to ${action} with a token on the page`);
    return token;
  };
  const sessionHashOf = (client: ConsoleBrowser) => sha256Hex(client.cookie!.split('=')[1]);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // A key, as production has (the secret results are sealed with it; without one they would be kept in clear).
    const key = { SECRETS_KEY: 'f'.repeat(64) };
    one = await startTestApp(kind, { ...key, LOG_LEVEL: 'info' }, { database, clock, logDestination: log });
    two = await startTestApp(kind, { ...key, LOG_LEVEL: 'fatal' }, { database, clock });
    admin = await signInConsole(one, { admin: true, permissions: ['read', 'write', 'delete'] });
  }, 60_000);

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  /** A username_password user's create form, filled: the password left empty for the console to generate. */
  const userForm = (username: string) => ({
    context: A,
    loginMethod: 'username_password',
    name: `User ${username}`,
    username,
    password: '',
    venueIds: A,
  });

  it('answers every form that creates or changes something with a 303 to a page a reload shows again', async () => {
    const client = admin.console;
    /** Sends the form from its page (the page's token), expects the 303, and loads where it leads. */
    const submit = async (page: string, action: string, form: Record<string, string>, location: RegExp) => {
      const shown = await client.get(page);
      expect([page, shown.status]).toEqual([page, 200]);
      const answer = await client.post(action, { ...form, formToken: tokenOf(shown.text, action) });
      expect([action, answer.status, answer.headers.location]).toEqual([action, 303, expect.stringMatching(location)]);
      const next = await client.get(answer.headers.location);
      expect([answer.headers.location, next.status]).toEqual([answer.headers.location, 200]);
      return { answer, next, location: answer.headers.location };
    };

    // Settings: venues, NAS, API tokens, operators.
    await submit(
      '/admin/settings/venues/new',
      '/admin/settings/venues/new',
      { id: A, displayName: 'Forms A' },
      /^\/admin\/settings\/venues\?notice=/,
    );
    await submit(
      `/admin/settings/venues/${A}/edit`,
      `/admin/settings/venues/${A}/edit`,
      { displayName: 'Forms A, lobby' },
      /^\/admin\/settings\/venues\?notice=/,
    );
    const nasName = unique('nas');
    await submit(
      '/admin/settings/nas/new',
      '/admin/settings/nas/new',
      {
        venueId: A,
        name: nasName,
        ipAddress: '192.0.2.77',
        secret: 'forms-secret-0123456789abcdef',
        coaPort: '3799',
        vendor: 'other',
      },
      /^\/admin\/settings\/nas\?notice=/,
    );
    const nas = await rows(NasClientEntity).findOneByOrFail({ name: nasName });
    await submit(
      `/admin/settings/nas/${nas.id}/remove`,
      `/admin/settings/nas/${nas.id}/remove`,
      {},
      /^\/admin\/settings\/nas\?notice=/,
    );
    const tokenName = unique('token');
    const token = await submit(
      '/admin/settings/tokens/new',
      '/admin/settings/tokens',
      { name: tokenName, permissions: 'read', scope: 'all' },
      new RegExp(`^/admin/settings/tokens/created/${RESULT_ID}$`),
    );
    expect(textById(token.next.text, 'token-value')).toMatch(/^hsp_/);
    const tokenId = (await rows(ApiTokenEntity).findOneByOrFail({ name: tokenName })).id;
    await submit(
      `/admin/settings/tokens/${tokenId}/revoke`,
      `/admin/settings/tokens/${tokenId}/revoke`,
      {},
      /^\/admin\/settings\/tokens\?notice=/,
    );
    const email = `${unique('desk')}@forms.example`;
    const operator = await submit(
      '/admin/settings/operators/new',
      '/admin/settings/operators',
      { email, name: 'Desk', permissions: 'read', scope: 'all' },
      new RegExp(`^/admin/settings/operators/[0-9a-f-]{36}/password/${RESULT_ID}$`),
    );
    expect(textById(operator.next.text, 'one-time-password')).toMatch(/^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/);
    const desk = await rows(OperatorEntity).findOneByOrFail({ emailKey: email });
    const deskPage = `/admin/settings/operators/${desk.id}`;
    await submit(
      deskPage,
      deskPage,
      { name: 'Desk B', permissions: 'read', scope: 'all', confirm: 'yes' },
      new RegExp(`^${deskPage}\\?notice=`),
    );
    for (const action of ['disable', 'enable', 'reset-2fa']) {
      await submit(`${deskPage}/${action}`, `${deskPage}/${action}`, {}, new RegExp(`^${deskPage}\\?notice=`));
    }
    const reset = await submit(
      `${deskPage}/reset-password`,
      `${deskPage}/reset-password`,
      {},
      new RegExp(`^${deskPage}/password/${RESULT_ID}$`),
    );
    expect(textById(reset.next.text, 'one-time-password')).toMatch(/^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/);

    // Users: create, edit, the guest password reset, block, unblock, expire, delete.
    const username = unique('guest');
    const created = await submit(
      `/admin/users/new?venueId=${A}`,
      '/admin/users/new',
      userForm(username),
      new RegExp(`^/admin/users/[0-9a-f-]{36}/created/${RESULT_ID}\\?venueId=${A}$`),
    );
    expect(textById(created.next.text, 'generated-password')).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const user = await rows(HotspotUserEntity).findOneByOrFail({ username });
    const userPage = `/admin/users/${user.id}`;
    const edit = await client.get(`${userPage}/edit?venueId=${A}`);
    const edited = await client.post(`${userPage}/edit`, {
      ...userForm(username),
      name: 'Edited',
      context: A,
      etag: etagOf(edit.text),
      formToken: tokenOf(edit.text, `${userPage}/edit`),
    });
    expect([edited.status, edited.headers.location]).toEqual([
      303,
      `${userPage}?venueId=${A}&notice=notice.users.updated`,
    ]);
    const passwordForm = await client.get(`${userPage}/password?venueId=${A}`);
    const generated = await client.post(`${userPage}/password`, {
      context: A,
      mode: 'generate',
      etag: etagOf(passwordForm.text),
      formToken: tokenOf(passwordForm.text, `${userPage}/password`),
    });
    expect([generated.status, generated.headers.location]).toEqual([
      303,
      expect.stringMatching(new RegExp(`^${userPage}/password/${RESULT_ID}\\?venueId=${A}$`)),
    ]);
    expect(textById((await client.get(generated.headers.location)).text, 'generated-password')).toMatch(
      /^[a-z2-9]{5}-[a-z2-9]{5}$/,
    );
    await startSession(one, { userId: user.id, venueId: A, macAddress: uniqueDevice().macAddress });
    for (const action of ['block', 'unblock', 'expire', 'delete']) {
      const confirm = await client.get(`${userPage}/${action}?venueId=${A}`);
      const answer = await client.post(`${userPage}/${action}`, {
        context: A,
        etag: etagOf(confirm.text),
        formToken: tokenOf(confirm.text, `${userPage}/${action}`),
      });
      expect([action, answer.status]).toEqual([action, 303]);
      expect((await client.get(answer.headers.location)).status).toBe(200);
    }

    // Batches: create, print, export (a file, fetched by the GET the 303 leads to).
    const batchAnswer = await submit(
      `/admin/batches?venueId=${A}`,
      '/admin/batches',
      { venueId: A, count: '2', expiresAt: '2099-01-31T12:00', label: 'Forms' },
      /^\/admin\/batches\/[0-9a-f-]{36}\?notice=/,
    );
    const batchId = /\/admin\/batches\/([^?]+)/.exec(batchAnswer.location)![1];
    await submit(
      `/admin/batches/${batchId}/print`,
      `/admin/batches/${batchId}/print`,
      {},
      new RegExp(`^/admin/batches/${batchId}/cards/${RESULT_ID}$`),
    );
    const exportPage = await client.get(`/admin/batches/${batchId}/export.csv`);
    const exported = await client.post(`/admin/batches/${batchId}/export.csv`, {
      formToken: tokenOf(exportPage.text, `/admin/batches/${batchId}/export.csv`),
    });
    expect([exported.status, exported.headers.location]).toEqual([
      303,
      expect.stringMatching(new RegExp(`^/admin/batches/${batchId}/export/${RESULT_ID}$`)),
    ]);
    const csv = await client.get(exported.headers.location);
    expect([csv.status, csv.headers['content-type']]).toEqual([200, expect.stringMatching(/^text\/csv/)]);

    // Online now's Disconnect, and Retry now of a failed job.
    const guest = await givenUser(one, { username: unique('online'), venueIds: [A] });
    const session = await startSession(one, { userId: guest._id, venueId: A, macAddress: uniqueDevice().macAddress });
    const disconnected = await submit(
      `/admin/online/${session.id}/disconnect`,
      `/admin/online/${session.id}/disconnect`,
      {},
      /^\/admin\/online\?venueId=.*&job=.*&notice=notice\.online\.disconnected$/,
    );
    const jobId = /job=([^&]+)/.exec(disconnected.location)![1];
    await rows(UnauthJobEntity).update({ id: jobId }, { status: 'failed' });
    await submit(
      `/admin/jobs/${jobId}/retry`,
      `/admin/jobs/${jobId}/retry`,
      {},
      new RegExp(`^/admin/jobs/${jobId}\\?notice=`),
    );

    // My account: time zone, recovery codes, removing a passkey; then the password change.
    await submit(
      '/admin/account',
      '/admin/account/time-zone',
      { timeZone: 'Europe/Istanbul' },
      /^\/admin\/account\?notice=/,
    );
    const codes = await submit(
      '/admin/account',
      '/admin/account/recovery-codes',
      { password: OPERATOR_PASSWORD },
      new RegExp(`^/admin/account/recovery-codes/${RESULT_ID}$`),
    );
    expect(recoveryCodesOf(codes.next.text)).toHaveLength(10);
    const passkeyId = newId();
    await rows(OperatorPasskeyEntity).insert({
      id: passkeyId,
      operatorId: admin.operator.id,
      credentialId: unique('credential'),
      publicKey: 'AQID',
      signCount: '0',
      transports: null,
      name: 'Laptop',
      createdAt: clock.now(),
      lastUsedAt: null,
    });
    const removed = await client.post(`/admin/account/passkeys/${passkeyId}/remove`, {});
    expect([removed.status, removed.headers.location]).toEqual([
      303,
      '/admin/account?notice=notice.account.passkeyRemoved',
    ]);
    await submit(
      '/admin/password',
      '/admin/password',
      { current: OPERATOR_PASSWORD, password: 'a new passphrase for forms', repeat: 'a new passphrase for forms' },
      /^\/admin$/,
    );
    // (The enrolment's POST is signInConsole's: a 303 to its recovery codes.)
  });

  it('answers a form sent again "Already done", with a link to what the first POST made, and makes nothing twice', async () => {
    const { console: client } = await signInConsole(one, { admin: true, permissions: ['read', 'write', 'delete'] });
    /** Sends one form twice with its page's token: the first changes, the second is told it was done. */
    const twice = async (page: string, action: string, form: Record<string, string>) => {
      const formToken = tokenOf((await client.get(page)).text, action);
      const first = await client.post(action, { ...form, formToken });
      expect([action, first.status]).toEqual([action, 303]);
      const again = await client.post(action, { ...form, formToken });
      expect([action, again.status]).toEqual([action, 409]);
      expect(again.text).toContain('Already done');
      expect(again.text).toContain('It was not done a second time.');
      expect(again.text).not.toContain('not saved');
      return { first, again };
    };
    const linkOf = (html: string) => decoded(/<a href="([^"]+)">See what was done<\/a>/.exec(html)?.[1] ?? '');

    const username = unique('twice');
    const user = await twice(`/admin/users/new?venueId=${A}`, '/admin/users/new', userForm(username));
    expect(linkOf(user.again.text)).toBe(user.first.headers.location);
    expect(await rows(HotspotUserEntity).countBy({ username })).toBe(1);
    // The generated password is still on the page the link leads to.
    expect(textById((await client.get(linkOf(user.again.text))).text, 'generated-password')).toMatch(/^[a-z2-9]{5}-/);

    const guestName = unique('Guest twice');
    const guest = await twice(`/admin/users/new?loginMethod=guest&venueId=${A}`, '/admin/users/new', {
      context: A,
      loginMethod: 'guest',
      name: guestName,
      venueIds: A,
    });
    expect(linkOf(guest.again.text)).toBe(guest.first.headers.location);
    expect(await usersNamed(guestName)).toBe(1);

    const tokenName = unique('token twice');
    await twice('/admin/settings/tokens/new', '/admin/settings/tokens', {
      name: tokenName,
      permissions: 'read',
      scope: 'all',
    });
    expect(await rows(ApiTokenEntity).countBy({ name: tokenName })).toBe(1);

    const email = `${unique('twice')}@forms.example`;
    await twice('/admin/settings/operators/new', '/admin/settings/operators', {
      email,
      name: 'Twice',
      permissions: 'read',
      scope: 'all',
    });
    expect(await rows(OperatorEntity).countBy({ emailKey: email })).toBe(1);

    const venueId = unique('venue-twice');
    const venue = await twice('/admin/settings/venues/new', '/admin/settings/venues/new', {
      id: venueId,
      displayName: 'Twice',
    });
    expect(linkOf(venue.again.text)).toBe('/admin/settings/venues');
    expect(await rows(VenueEntity).countBy({ id: venueId })).toBe(1);

    const label = unique('batch twice');
    const batch = await twice(`/admin/batches?venueId=${A}`, '/admin/batches', {
      venueId: A,
      count: '3',
      expiresAt: '2099-01-31T12:00',
      label,
    });
    expect(linkOf(batch.again.text)).toBe(batch.first.headers.location.split('?')[0]);
    expect(await rows(UserBatchEntity).countBy({ label })).toBe(1);

    const blocked = await givenUser(one, { username: unique('block'), venueIds: [A] });
    const path = `/admin/users/${blocked._id}/block`;
    const confirm = await client.get(`${path}?venueId=${A}`);
    const formToken = tokenOf(confirm.text, path);
    const form = { context: A, etag: etagOf(confirm.text), formToken };
    expect((await client.post(path, form)).status).toBe(303);
    // Not "changed by someone else" (the ETag moved on): the same form, already done.
    const again = await client.post(path, form);
    expect(again.status).toBe(409);
    expect(linkOf(again.text)).toBe(`/admin/users/${blocked._id}?venueId=${A}`);
    const audit = await rows(AuditEventEntity).findBy({ targetId: blocked._id, action: 'user.block' });
    expect(audit).toHaveLength(1);
  });

  it('of POSTs of one form sent at the same moment, makes exactly one change and tells the others it was done', async () => {
    const { console: client } = await signInConsole(one, { admin: true, permissions: ['read', 'write', 'delete'] });
    // A user with a generated password: each request hashes before its transaction, so all of them
    // pass the first look at the token before any commits, and meet in the transaction.
    const username = unique('race');
    const formToken = tokenOf((await client.get(`/admin/users/new?venueId=${A}`)).text, '/admin/users/new');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.post('/admin/users/new', { ...userForm(username), formToken })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([303, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.text).toContain('Already done');
    const [user] = await rows(HotspotUserEntity).findBy({ username });
    expect(await rows(HotspotUserEntity).countBy({ username })).toBe(1);
    expect(await rows(AuditEventEntity).countBy({ targetId: user.id, action: 'user.create' })).toBe(1);

    // The same on two instances at once, for an API token.
    const name = unique('race token');
    const tokenForm = (await client.get('/admin/settings/tokens/new')).text;
    const token = tokenOf(tokenForm, '/admin/settings/tokens');
    const onTwo = new ConsoleBrowser(() => two.http);
    onTwo.cookie = client.cookie;
    const both = await Promise.all(
      [client, onTwo, client, onTwo].map((browser) =>
        browser.post('/admin/settings/tokens', { name, permissions: 'read', scope: 'all', formToken: token }),
      ),
    );
    expect(both.map((answer) => answer.status).sort()).toEqual([303, 409, 409, 409]);
    expect(await rows(ApiTokenEntity).countBy({ name })).toBe(1);
  });

  it('refuses a form without a token of its own session like a forged one, and changes nothing', async () => {
    const mine = await signInConsole(one, { admin: true, permissions: ['read', 'write', 'delete'] });
    const other = await signInConsole(one, { admin: true, permissions: ['read', 'write', 'delete'] });
    const theirs = tokenOf((await other.console.get(`/admin/users/new?venueId=${A}`)).text, '/admin/users/new');
    const own = tokenOf((await mine.console.get(`/admin/users/new?venueId=${A}`)).text, '/admin/users/new');
    const name = unique('Forged');
    const altered = `${own.slice(0, 30)}${own[30] === 'A' ? 'B' : 'A'}${own.slice(31)}`;
    for (const formToken of ['', theirs, altered, `${own}x`, 'not a token']) {
      const answer = await mine.console.post('/admin/users/new', {
        context: A,
        loginMethod: 'guest',
        name,
        venueIds: A,
        formToken,
      });
      expect([formToken, answer.status]).toEqual([formToken, 403]);
      expect(answer.text).toContain('does not belong to your present session');
    }
    // Without the field at all.
    const bare = await one.http
      .post('/admin/users/new')
      .type('form')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Cookie', mine.console.cookie!)
      .send({ context: A, loginMethod: 'guest', name, venueIds: A });
    expect(bare.status).toBe(403);
    expect(await usersNamed(name)).toBe(0);
    // The other session's own token still works there: it was never used.
    expect(
      (
        await other.console.post('/admin/users/new', {
          context: A,
          loginMethod: 'guest',
          name,
          venueIds: A,
          formToken: theirs,
        })
      ).status,
    ).toBe(303);
    expect(await usersNamed(name)).toBe(1);
  });

  it(`shows a secret result again after a reload, to its session only and on every instance, for ${SECRET_MINUTES} minutes`, async () => {
    const {
      console: client,
      operator,
      totpSecret,
    } = await signInConsole(one, {
      admin: true,
      permissions: ['read', 'write', 'delete'],
    });
    const username = unique('window');
    const created = await client.post('/admin/users/new', userForm(username));
    expect(created.status).toBe(303);
    const location = created.headers.location;
    const password = textById((await client.get(location)).text, 'generated-password')!;
    expect(password).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(location).not.toContain(password);
    // A reload, and the other instance (the result is in the shared database).
    clock.advance(SECRET_MINUTES * MINUTE - 1_000);
    expect(textById((await client.get(location)).text, 'generated-password')).toBe(password);
    const onTwo = new ConsoleBrowser(() => two.http);
    onTwo.cookie = client.cookie;
    expect(textById((await onTwo.get(location)).text, 'generated-password')).toBe(password);
    // Another session of the same operator: not its result.
    const elsewhere = new ConsoleBrowser(() => one.http);
    await elsewhere.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
    await elsewhere.post('/admin/login/second-factor', { code: totpCode(totpSecret!, clock.now()) });
    expect((await elsewhere.get('/admin')).status).toBe(200);
    const foreign = await elsewhere.get(location);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(password);
    // Kept sealed, never in clear.
    const resultId = /created\/([^?]+)/.exec(location)![1];
    const stored = await rows(ConsoleFormTokenEntity).findOneByOrFail({ resultId });
    expect(stored.sessionHash).toBe(sessionHashOf(client));
    expect(stored.sealedSecret).toMatch(/^aes256gcm:/);
    expect(JSON.stringify(stored)).not.toContain(password);

    clock.advance(2_000);
    const after = await client.get(location);
    expect(after.status).toBe(200);
    expect(after.text).not.toContain(password);
    expect(after.text).toContain(`this page shows it for ${SECRET_MINUTES} minutes only`);
    expect(after.text).toContain(username);
    // The next form sent by anyone erases what is past its window.
    expect((await client.post('/admin/account/time-zone', { timeZone: 'UTC' })).status).toBe(303);
    const erased = await rows(ConsoleFormTokenEntity).findOneByOrFail({ resultId });
    expect([erased.sealedSecret, erased.secretUntil]).toEqual([null, null]);
    // Never in the log, the audit trail or a URL.
    expect(log.text).not.toContain(password);
    expect(JSON.stringify(await rows(AuditEventEntity).find())).not.toContain(password);
  });

  it('reloads the cards of a print without another reveal, within the window only', async () => {
    const { console: client } = await signInConsole(one, { permissions: ['read', 'write'] });
    const created = await client.post('/admin/batches', {
      venueId: A,
      count: '2',
      expiresAt: '2099-01-31T12:00',
      label: unique('cards'),
    });
    const batchId = /\/admin\/batches\/([^?]+)/.exec(created.headers.location)![1];
    const printed = await client.post(`/admin/batches/${batchId}/print`, {});
    expect(printed.status).toBe(303);
    const cards = printed.headers.location;
    for (let reload = 0; reload < 3; reload += 1) {
      const page = await client.get(cards);
      expect(page.status).toBe(200);
      expect(page.text.match(/class="card"/g)).toHaveLength(2);
    }
    expect(await rows(AuditEventEntity).countBy({ targetId: batchId, action: 'batch.reveal' })).toBe(1);
    clock.advance(SECRET_MINUTES * MINUTE + 1_000);
    const gone = await client.get(cards);
    expect(gone.status).toBe(410);
    expect(gone.text).not.toContain('class="card"');
    expect(gone.text).toContain('Print or export them again');
  });

  it("ends a session's results when it signs out", async () => {
    const { console: client } = await signInConsole(one, { admin: true, permissions: ['read', 'write', 'delete'] });
    const hash = sessionHashOf(client);
    // The enrolment's recovery codes (gone with the session to its new id), then a token's value.
    expect(await rows(ConsoleFormTokenEntity).countBy({ sessionHash: hash })).toBe(1);
    const created = await client.post('/admin/settings/tokens', {
      name: unique('signed out'),
      permissions: 'read',
      scope: 'all',
    });
    expect(created.status).toBe(303);
    expect(await rows(ConsoleFormTokenEntity).countBy({ sessionHash: hash })).toBe(2);
    expect((await client.post('/admin/logout', {})).status).toBe(303);
    expect(await rows(ConsoleFormTokenEntity).countBy({ sessionHash: hash })).toBe(0);
  });
});
