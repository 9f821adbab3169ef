import { Clock } from '../src/common/clock.js';
import { OperatorSessionEntity } from '../src/operators/entities/operator-session.entity.js';
import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { OperatorEntity } from '../src/operators/entities/operator.entity.js';
import { OperatorsService } from '../src/operators/operators.service.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import {
  ConsoleBrowser,
  givenOperator,
  OPERATOR_PASSWORD,
  pageText,
  recoveryCodesOf,
  totpCode,
} from './support/console.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRETS_KEY = 'c2VjcmV0cy1rZXktb2YtdGhpcy10ZXN0LTMyLWJ5dGU=';

/**
 * The console's sign-in as a browser goes through it: password, second factor, recovery codes,
 * the forced password change, slow-down, session expiry, and sessions ended on another instance.
 */
for (const kind of databaseKinds()) {
  describe(`console sign-in [${kind}]`, () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00.000Z'));
    let database: TestDatabase;
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      // Passwords and sessions: operators without a second factor may use the console here
      // (OPERATORS_REQUIRE_2FA=false); the last suite below runs with the default.
      first = await startTestApp(kind, { SECRETS_KEY, OPERATORS_REQUIRE_2FA: 'false' }, { database, clock });
      second = await startTestApp(kind, { SECRETS_KEY, OPERATORS_REQUIRE_2FA: 'false' }, { database, clock });
    }, 60_000);

    afterAll(async () => {
      await first?.close();
      await second?.close();
      await database?.drop();
    });

    const browser = (app: TestApp = first) => new ConsoleBrowser(() => app.http);

    async function signedIn(email: string, password = OPERATOR_PASSWORD, app: TestApp = first) {
      const client = browser(app);
      const answer = await client.post('/admin/login', { email, password });
      expect(answer.status).toBe(303);
      return client;
    }

    /** Enrols TOTP for a signed-in client; returns the key and the recovery codes. */
    async function enrol(client: ConsoleBrowser) {
      const page = await client.get('/admin/two-factor');
      expect(page.status).toBe(200);
      const secret = pageText(page.text, 'secret');
      expect(page.text).toContain('<svg');
      expect(page.text).toContain(`otpauth://totp/`);
      const confirmed = await client.post('/admin/two-factor', { code: totpCode(secret, clock.now()) });
      // Post/Redirect/Get: the codes are on the page the POST sends the browser to, under the new session id.
      expect(confirmed.status).toBe(303);
      const codes = recoveryCodesOf((await client.follow(confirmed)).text);
      expect(codes).toHaveLength(10);
      return { secret, codes };
    }

    it('the right password signs in; the home page names the operator and is not cached', async () => {
      const operator = await givenOperator(first, { name: 'Ayşe <Yılmaz>' });
      const client = await signedIn(operator.email.toUpperCase());
      const home = await client.get('/admin');
      expect(home.status).toBe(200);
      expect(home.text).toContain('Ayşe &lt;Yılmaz&gt;');
      expect(home.headers['cache-control']).toBe('no-store');
      expect(home.headers['content-security-policy']).toBe(
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;frame-ancestors 'none';form-action 'self';base-uri 'none';object-src 'none'",
      );
      const cookie = client.cookie ?? '';
      expect(cookie).toMatch(/^hotspot_console=[A-Za-z0-9_-]{22}$/);
    });

    it('the cookie is HttpOnly, SameSite=Strict, kept to /admin over HTTP', async () => {
      const operator = await givenOperator(first);
      const answer = await first.http
        .post('/admin/login')
        .type('form')
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ email: operator.email, password: OPERATOR_PASSWORD });
      const set = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).join('\n');
      expect(set).toMatch(/hotspot_console=[^;]+; Path=\/admin; HttpOnly; SameSite=Strict/);
      expect(set).not.toMatch(/Secure/);
    });

    it('a wrong password and an unknown email get the same answer, and neither is faster', async () => {
      const operator = await givenOperator(first);
      const attempt = async (email: string, password: string) => {
        const started = performance.now();
        const answer = await browser().post('/admin/login', { email, password });
        return { answer, ms: performance.now() - started };
      };
      const wrong = [];
      const unknown = [];
      // Different emails each time, so the per-account slow-down never comes in.
      for (let i = 0; i < 5; i += 1) {
        wrong.push(await attempt(operator.email, `wrong password ${i}`));
        unknown.push(await attempt(`nobody${i}@venue.example`, `wrong password ${i}`));
        clock.advance(60_000);
      }
      for (const { answer } of [...wrong, ...unknown]) {
        expect(answer.status).toBe(401);
        expect(answer.headers['set-cookie']).toBeUndefined();
      }
      const strip = (text: string) => text.replace(/value="[^"]*@venue\.example"/, '');
      expect(strip(unknown[0].answer.text)).toBe(strip(wrong[0].answer.text));
      const median = (runs: Array<{ ms: number }>) => runs.map(({ ms }) => ms).sort((a, b) => a - b)[2];
      // Both run one argon2id verification: the unknown email is not answered in a fraction of the time.
      expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
    });

    it('sign-ins, failed sign-ins, enrolment and a password change write audit rows without a secret', async () => {
      const operator = await givenOperator(first);
      const events = async () =>
        (
          await first.dataSource.getRepository(AuditEventEntity).find({ order: { occurredAt: 'ASC', id: 'ASC' } })
        ).filter(
          (event) => event.targetId === operator.id || (event.targetId === null && event.actorType === 'operator'),
        );
      const before = (await events()).length;
      const wrong = `Wrong-${operator.email}-password`;
      expect((await browser().post('/admin/login', { email: operator.email, password: wrong })).status).toBe(401);
      // Text in the email field that is no operator's email (a password typed there by mistake) is not kept.
      const typedPassword = 'My-Secret-Password-Typed-In-The-Email-Field';
      await browser().post('/admin/login', { email: typedPassword, password: wrong });
      clock.advance(60_000);
      const client = await signedIn(operator.email);
      await enrol(client);
      const written = (await events()).slice(before);
      expect(written.map((event) => [event.action, event.outcome, event.actorId])).toEqual([
        ['signin.failure', 'failure', operator.id],
        ['signin.failure', 'failure', null],
        ['signin.success', 'success', operator.id],
        ['2fa.enrol', 'success', operator.id],
      ]);
      expect(written[2]).toMatchObject({ actorType: 'operator', actorName: operator.email, targetType: 'operator' });
      const text = JSON.stringify(await first.dataSource.getRepository(AuditEventEntity).find());
      for (const secret of [OPERATOR_PASSWORD, wrong, typedPassword]) expect(text).not.toContain(secret);
    });

    it('a disabled operator is refused with the same answer as a wrong password', async () => {
      const operator = await givenOperator(first);
      await first.dataSource.getRepository(OperatorEntity).update({ id: operator.id }, { status: 'disabled' });
      const answer = await browser().post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
      expect(answer.status).toBe(401);
      expect(answer.text).toContain('The email or the password is wrong.');
    });

    it('TOTP: enrolment, then the code as second step; a code is accepted once', async () => {
      const operator = await givenOperator(first);
      const client = await signedIn(operator.email);
      const { secret } = await enrol(client);
      const stored = await first.dataSource.getRepository(OperatorEntity).findOneByOrFail({ id: operator.id });
      expect(stored.totpSecret).toMatch(/^aes256gcm:/);
      expect(stored.totpSecret).not.toContain(secret);
      clock.advance(30_000);

      const again = browser();
      const step1 = await again.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
      expect(step1.headers.location).toBe('/admin/login/second-factor');
      expect((await again.get('/admin')).headers.location).toBe('/admin/login/second-factor');
      const code = totpCode(secret, clock.now());
      const step2 = await again.post('/admin/login/second-factor', { code });
      expect(step2.status).toBe(303);
      expect(step2.headers.location).toBe('/admin');
      expect((await again.get('/admin')).status).toBe(200);

      // The same code once more, from another sign-in within its 30 s: refused.
      const replay = browser();
      await replay.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
      const refused = await replay.post('/admin/login/second-factor', { code });
      expect(refused.status).toBe(401);
      expect((await replay.get('/admin')).headers.location).toBe('/admin/login/second-factor');
    });

    it('one code used by two sign-ins at the same moment passes only once', async () => {
      const operator = await givenOperator(first);
      const { secret } = await enrol(await signedIn(operator.email));
      clock.advance(30_000);
      const pending = [browser(first), browser(second), browser(first), browser(second)];
      for (const client of pending) {
        await client.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
      }
      const code = totpCode(secret, clock.now());
      const answers = await Promise.all(pending.map((client) => client.post('/admin/login/second-factor', { code })));
      // One signs in; the others are refused, or told to wait once the three free failures are
      // spent (each attempt takes its turn before its code is checked).
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 303)).toHaveLength(1);
      expect(statuses.filter((status) => status !== 303 && status !== 401 && status !== 429)).toEqual([]);
    });

    it('a recovery code signs in once instead of TOTP', async () => {
      const operator = await givenOperator(first);
      const { codes } = await enrol(await signedIn(operator.email));
      const use = async () => {
        const client = browser();
        await client.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
        return client.post('/admin/login/recovery', { code: codes[3].toLowerCase() });
      };
      const firstUse = await use();
      expect(firstUse.status).toBe(303);
      expect(firstUse.headers.location).toBe('/admin');
      expect((await use()).status).toBe(401);
    });

    it('an admin must enrol before anything else', async () => {
      const admin = await givenOperator(first, { admin: true });
      const client = await signedIn(admin.email);
      expect((await client.get('/admin')).headers.location).toBe('/admin/two-factor');
      await enrol(client);
      expect((await client.get('/admin')).status).toBe(200);
    });

    it('a one-time password must be changed first; the new one must pass the policy', async () => {
      const operator = await givenOperator(first, { mustChangePassword: true, email: 'newbie@venue.example' });
      const client = await signedIn(operator.email);
      expect((await client.get('/admin')).headers.location).toBe('/admin/password');
      const weak = await client.post('/admin/password', {
        current: OPERATOR_PASSWORD,
        password: 'newbie@venue.example',
        repeat: 'newbie@venue.example',
      });
      expect(weak.status).toBe(422);
      expect(weak.text).toContain('must not be your email or name');
      const other = await signedIn(operator.email);
      const before = client.cookie;
      // The one-time password is asked again, and cannot be the new password.
      const same = await client.post('/admin/password', {
        current: OPERATOR_PASSWORD,
        password: OPERATOR_PASSWORD,
        repeat: OPERATOR_PASSWORD,
      });
      expect(same.status).toBe(422);
      expect(same.text).toContain('must differ from the current one');
      const wrong = await client.post('/admin/password', {
        current: 'not the one-time password',
        password: 'a long new passphrase',
        repeat: 'a long new passphrase',
      });
      expect(wrong.status).toBe(422);
      expect(wrong.text).toContain('The current password is not right.');
      const changed = await client.post('/admin/password', {
        current: OPERATOR_PASSWORD,
        password: 'a long new passphrase',
        repeat: 'a long new passphrase',
      });
      expect(changed.status).toBe(303);
      expect(client.cookie).not.toBe(before);
      expect((await client.get('/admin')).status).toBe(200);
      // The password change ended the other session.
      expect((await other.get('/admin')).headers.location).toBe('/admin/login');
      expect(
        (await browser().post('/admin/login', { email: operator.email, password: 'a long new passphrase' })).status,
      ).toBe(303);
      // One audit row for the change, naming the field, never the value; none for the refused one.
      const updates = await first.dataSource
        .getRepository(AuditEventEntity)
        .findBy({ targetId: operator.id, action: 'operator.update' });
      expect(updates).toEqual([
        expect.objectContaining({ actorId: operator.id, changedFields: ['password'], outcome: 'success' }),
      ]);
      expect(JSON.stringify(updates)).not.toContain('passphrase');
    });

    it('a password is one password however its accents were typed (Unicode NFC)', async () => {
      const composed = 'Crème brûlée à Kadıköy'.normalize('NFC');
      const operator = await givenOperator(first, { password: composed });
      const decomposed = composed.normalize('NFD');
      expect(decomposed).not.toBe(composed);
      expect((await browser().post('/admin/login', { email: operator.email, password: decomposed })).status).toBe(303);
      expect((await browser().post('/admin/login', { email: operator.email, password: composed })).status).toBe(303);
    });

    it('a one-time password stops working when it expires: no sign-in, no password change with it', async () => {
      const operator = await givenOperator(first, { mustChangePassword: true, email: 'expiring@venue.example' });
      // Signed in while it worked, on the forced password page when it expires.
      const client = await signedIn(operator.email);
      const late = await givenOperator(first, {
        mustChangePassword: true,
        email: 'late@venue.example',
        oneTimePasswordHours: -1,
      });
      const refused = await browser().post('/admin/login', { email: late.email, password: OPERATOR_PASSWORD });
      expect(refused.status).toBe(401);
      expect(refused.text).toContain('This one-time password has expired. Ask an administrator for a new one.');
      expect(refused.headers['set-cookie']).toBeUndefined();
      await first.dataSource
        .getRepository(OperatorEntity)
        .update({ id: operator.id }, { oneTimePasswordExpiresAt: new Date(clock.now().getTime() - 1) });
      const change = await client.post('/admin/password', {
        current: OPERATOR_PASSWORD,
        password: 'a long new passphrase',
        repeat: 'a long new passphrase',
      });
      expect(change.status).toBe(422);
      expect(change.text).toContain('The current password is not right.');
      const stored = await first.dataSource.getRepository(OperatorEntity).findOneByOrFail({ id: operator.id });
      expect(Boolean(stored.mustChangePassword)).toBe(true);
      // Each refusal is a failed sign-in in the audit trail.
      const failures = await first.dataSource
        .getRepository(AuditEventEntity)
        .findBy({ targetId: late.id, action: 'signin.failure' });
      expect(failures).toHaveLength(1);
    });

    it('failures slow the account down (exponentially, then 30 s at most), never lock it', async () => {
      const operator = await givenOperator(first);
      const fail = () => browser().post('/admin/login', { email: operator.email, password: 'not the password' });
      for (let i = 0; i < 3; i += 1) expect((await fail()).status).toBe(401);
      // The third failure set a one-second wait: even the right password is not checked now.
      const waiting = await browser().post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
      expect(waiting.status).toBe(429);
      expect(waiting.headers['retry-after']).toBe('1');
      // On the other instance too: the state is in the database.
      expect(
        (await browser(second).post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD })).status,
      ).toBe(429);
      clock.advance(1000);
      expect((await fail()).status).toBe(401);
      expect((await fail()).headers['retry-after']).toBe('2');
      for (let i = 0; i < 10; i += 1) {
        clock.advance(30_000);
        await fail();
      }
      expect((await fail()).headers['retry-after']).toBe('30');
      clock.advance(30_000);
      expect(
        (await browser().post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD })).status,
      ).toBe(303);
      // Success forgets the failures.
      expect((await fail()).status).toBe(401);
    });

    it('25 wrong passwords sent at once cost 25 turns: three are checked, the others wait unchecked', async () => {
      const operator = await givenOperator(first);
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          browser(i % 2 === 0 ? first : second).post('/admin/login', {
            email: operator.email,
            password: `not the password ${i}`,
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      // 401: checked and wrong; 429: told to wait, never checked; 503: the sign-in class was full.
      expect(statuses.filter((status) => status === 401)).toHaveLength(3);
      expect(statuses.filter((status) => status !== 401 && status !== 429 && status !== 503)).toEqual([]);
      const [row] = await first.dataSource.query<Array<{ failures: number | string }>>(
        'SELECT failures FROM console_sign_in_failures WHERE email_key = ?',
        [operator.email.toLowerCase()],
      );
      expect(Number(row.failures)).toBe(3);
      const failedRows = await first.dataSource
        .getRepository(AuditEventEntity)
        .countBy({ action: 'signin.failure', actorId: operator.id });
      expect(failedRows).toBe(3);
      clock.advance(60_000);
    });

    it('second-factor guesses are counted apart: the password again gives no fresh ones; a sign-in forgets them', async () => {
      const operator = await givenOperator(first);
      const { secret } = await enrol(await signedIn(operator.email));
      clock.advance(30_000);
      const guess = async () => {
        const client = browser();
        expect((await client.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD })).status).toBe(
          303,
        );
        return client.post('/admin/login/second-factor', { code: '000000' });
      };
      // Each guess after a fresh, successful password step: the password's count is forgotten each
      // time, the second factor's is not.
      for (let i = 0; i < 3; i += 1) expect((await guess()).status).toBe(401);
      const waiting = await guess();
      expect(waiting.status).toBe(429);
      expect(waiting.headers['retry-after']).toBe('1');
      clock.advance(1000);
      expect((await guess()).status).toBe(401);
      for (let i = 0; i < 12; i += 1) {
        clock.advance(15 * 60_000);
        expect((await guess()).status).toBe(401);
      }
      // The wait keeps doubling past the password's 30 s, up to 15 minutes.
      expect((await guess()).headers['retry-after']).toBe('900');
      clock.advance(15 * 60_000);
      const client = browser();
      await client.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
      const done = await client.post('/admin/login/second-factor', { code: totpCode(secret, clock.now()) });
      expect(done.status).toBe(303);
      // The completed sign-in forgot them: the next wrong code is checked at once.
      clock.advance(30_000);
      expect((await guess()).status).toBe(401);
    });

    it('/ADMIN in any letter case is the console, with its headers', async () => {
      for (const path of ['/ADMIN/login', '/Admin/Login', '/admin/LOGIN']) {
        const answer = await first.http.get(path);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(answer.headers['content-security-policy']).not.toContain('unsafe-inline');
      }
    });

    it('an unknown email slows down just like a known one', async () => {
      const fail = () => browser().post('/admin/login', { email: 'ghost@venue.example', password: 'not the password' });
      for (let i = 0; i < 3; i += 1) expect((await fail()).status).toBe(401);
      expect((await fail()).status).toBe(429);
      clock.advance(60_000);
    });

    it('a session is over after 30 minutes unused, and after 12 hours however busy', async () => {
      const operator = await givenOperator(first);
      const idle = await signedIn(operator.email);
      clock.advance(29 * 60_000);
      expect((await idle.get('/admin')).status).toBe(200);
      clock.advance(29 * 60_000);
      expect((await idle.get('/admin')).status).toBe(200);
      clock.advance(30 * 60_000);
      expect((await idle.get('/admin')).headers.location).toBe('/admin/login');

      const busy = await signedIn(operator.email);
      for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
        clock.advance(20 * 60_000);
        expect((await busy.get('/admin')).status).toBe(200);
      }
      clock.advance(20 * 60_000);
      expect((await busy.get('/admin')).headers.location).toBe('/admin/login');
    });

    it('sessions abandoned past their expiry are deleted at the next sign-in of anyone', async () => {
      const abandoned = await givenOperator(first);
      await signedIn(abandoned.email);
      const sessions = first.dataSource.getRepository(OperatorSessionEntity);
      expect(await sessions.countBy({ operatorId: abandoned.id })).toBe(1);
      clock.advance(12 * 3_600_000 + 1000);
      await signedIn((await givenOperator(first)).email);
      expect(await sessions.countBy({ operatorId: abandoned.id })).toBe(0);
    });

    it('disabling the operator ends its sessions on another instance at their next request', async () => {
      const operator = await givenOperator(first);
      const onSecond = await signedIn(operator.email, OPERATOR_PASSWORD, second);
      expect((await onSecond.get('/admin')).status).toBe(200);
      // What the operator commands do: status and a new rights_version.
      await first.dataSource
        .getRepository(OperatorEntity)
        .update({ id: operator.id }, { status: 'disabled', rightsVersion: operator.rightsVersion + 1 });
      expect((await onSecond.get('/admin')).headers.location).toBe('/admin/login');
    });

    it('a change of rights (hotspot operator set) ends its sessions on another instance, audited', async () => {
      const operator = await givenOperator(first);
      const onSecond = await signedIn(operator.email, OPERATOR_PASSWORD, second);
      expect((await onSecond.get('/admin')).status).toBe(200);
      const changed = await first.app.get(OperatorsService).changeRights(operator.email, { venueIds: ['venue-z'] });
      expect(changed?.changedFields).toEqual(['venueIds']);
      expect((await onSecond.get('/admin')).headers.location).toBe('/admin/login');
      const rows = await first.dataSource
        .getRepository(AuditEventEntity)
        .findBy({ targetId: operator.id, action: 'operator.update' });
      expect(rows).toEqual([expect.objectContaining({ actorType: 'cli', changedFields: ['venueIds'] })]);
    });

    it('a password change on one instance ends the other sessions on the other instance', async () => {
      const operator = await givenOperator(first);
      const onSecond = await signedIn(operator.email, OPERATOR_PASSWORD, second);
      const onFirst = await signedIn(operator.email, OPERATOR_PASSWORD, first);
      const changed = await onFirst.post('/admin/password', {
        current: OPERATOR_PASSWORD,
        password: 'another long passphrase',
        repeat: 'another long passphrase',
      });
      expect(changed.status).toBe(303);
      expect((await onFirst.get('/admin')).status).toBe(200);
      expect((await onSecond.get('/admin')).headers.location).toBe('/admin/login');
    });

    it('a stolen session cannot take the account: the password change asks the current one; no session outlives 12 h', async () => {
      const operator = await givenOperator(first);
      const thief = await signedIn(operator.email);
      // With the cookie alone, no new password (new recovery codes ask the password or a code too).
      const refused = await thief.post('/admin/password', {
        current: '',
        password: 'the thief passphrase',
        repeat: 'the thief passphrase',
      });
      expect(refused.status).toBe(422);
      expect(
        (await browser().post('/admin/login', { email: operator.email, password: 'the thief passphrase' })).status,
      ).toBe(401);
      // A change with the right current password keeps the session's start: 12 hours after the
      // sign-in it is over, however often the password changed. (Used every 25 minutes, so that it
      // never idles out.)
      let minutes = 0;
      const useUntil = async (until: number) => {
        for (; minutes + 25 < until; minutes += 25) {
          clock.advance(25 * 60_000);
          expect((await thief.get('/admin')).status).toBe(200);
        }
      };
      await useUntil(11 * 60);
      const changed = await thief.post('/admin/password', {
        current: OPERATOR_PASSWORD,
        password: 'a fresh long passphrase',
        repeat: 'a fresh long passphrase',
      });
      expect(changed.status).toBe(303);
      await useUntil(12 * 60);
      clock.advance((12 * 60 - minutes) * 60_000 + 1000);
      expect((await thief.get('/admin')).headers.location).toBe('/admin/login');
      clock.advance(60_000);
    });

    it('sign out ends the session; sign out everywhere ends all of them', async () => {
      const operator = await givenOperator(first);
      const a = await signedIn(operator.email);
      const b = await signedIn(operator.email, OPERATOR_PASSWORD, second);
      const c = await signedIn(operator.email);
      const cookieOfA = a.cookie;
      expect((await a.post('/admin/logout', {})).headers.location).toBe('/admin/login');
      a.cookie = cookieOfA;
      expect((await a.get('/admin')).headers.location).toBe('/admin/login');
      expect((await b.get('/admin')).status).toBe(200);
      expect((await c.post('/admin/logout-everywhere', {})).status).toBe(303);
      expect((await b.get('/admin')).headers.location).toBe('/admin/login');
    });

    it('a POST without Fetch Metadata or Origin, or from another origin, is refused', async () => {
      const operator = await givenOperator(first);
      const plain = await first.http
        .post('/admin/login')
        .type('form')
        .send({ email: operator.email, password: OPERATOR_PASSWORD });
      expect(plain.status).toBe(403);
      const foreign = await first.http
        .post('/admin/login')
        .type('form')
        .set('Origin', 'http://evil.example')
        .send({ email: operator.email, password: OPERATOR_PASSWORD });
      expect(foreign.status).toBe(403);
      expect(foreign.headers['set-cookie']).toBeUndefined();
    });

    it('the console is in Turkish when asked, English otherwise', async () => {
      expect((await first.http.get('/admin/login').set('Accept-Language', 'tr-TR,tr;q=0.9')).text).toContain(
        'Oturum aç',
      );
      expect((await first.http.get('/admin/login').set('Cookie', 'lang=tr')).text).toContain('lang="tr"');
      expect((await first.http.get('/admin/login')).text).toContain('lang="en"');
    });

    it('an unknown console page answers 404 with a page of the console', async () => {
      const answer = await first.http.get('/admin/no-such-page').set('Accept-Language', 'tr');
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.text).toContain('Bu sayfa yok.');
      expect((await first.http.get('/admin/static/nope.css')).status).toBe(404);
    });

    it('the v1 API is untouched: /admin is not in its OpenAPI document', async () => {
      const document = await first.http.get('/api/docs-json');
      expect(Object.keys(document.body.paths)).toContain('/api/v1/hotspot-users');
      expect(JSON.stringify(document.body.paths)).not.toContain('/admin');
    });
  });
}

for (const kind of databaseKinds()) {
  describe(`console behind a trusted HTTPS proxy, with a per-address limit [${kind}]`, () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp(kind, {
        TRUST_PROXY: '1',
        RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3',
        OPERATORS_REQUIRE_2FA: 'false',
      });
    });

    afterAll(async () => {
      await testApp?.close();
    });

    const post = (address: string, form: Record<string, string>) =>
      testApp.http
        .post('/admin/login')
        .type('form')
        .set('Host', 'console.example')
        .set('X-Forwarded-Proto', 'https')
        .set('X-Forwarded-For', address)
        .set('Origin', 'https://console.example')
        .send(form);

    it('the cookie is Secure with the __Host- prefix (Path=/) when the proxy says HTTPS', async () => {
      const operator = await givenOperator(testApp);
      const answer = await post('198.51.100.1', { email: operator.email, password: OPERATOR_PASSWORD });
      expect(answer.status).toBe(303);
      const set = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).join('\n');
      expect(set).toMatch(/^__Host-hotspot_console=[A-Za-z0-9_-]{22}; Path=\/; HttpOnly; Secure; SameSite=Strict/);
      const home = await testApp.http.get('/admin').set('X-Forwarded-Proto', 'https').set('Cookie', set.split(';')[0]);
      expect(home.status).toBe(200);
    });

    it('an Origin of plain HTTP is another origin than the HTTPS one the proxy reports', async () => {
      const answer = await post('198.51.100.2', { email: 'a@venue.example', password: 'x' }).set(
        'Origin',
        'http://console.example',
      );
      expect(answer.status).toBe(403);
    });

    it('an address past its per-minute budget is refused before any password is checked', async () => {
      const operator = await givenOperator(testApp);
      for (let i = 0; i < 3; i += 1) {
        expect((await post('198.51.100.7', { email: `x${i}@venue.example`, password: 'wrong' })).status).toBe(401);
      }
      const refused = await post('198.51.100.7', { email: operator.email, password: OPERATOR_PASSWORD });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      // Another address is not affected.
      expect((await post('198.51.100.8', { email: operator.email, password: OPERATOR_PASSWORD })).status).toBe(303);
    });
  });

  describe(`a second factor for every operator, by default [${kind}]`, () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp(kind);
    }, 60_000);

    afterAll(async () => {
      await testApp?.close();
    });

    it('an operator who is no administrator must enrol before any page, and is asked for the code after', async () => {
      const operator = await givenOperator(testApp, { permissions: ['read', 'write'] });
      const client = new ConsoleBrowser(() => testApp.http);
      expect((await client.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD })).status).toBe(
        303,
      );
      for (const path of ['/admin', '/admin/users', '/admin/account', '/admin/online']) {
        const page = await client.get(path);
        expect([path, page.status, page.headers.location]).toEqual([path, 303, '/admin/two-factor']);
      }
      const enrolment = await client.get('/admin/two-factor');
      const secret = pageText(enrolment.text, 'secret');
      const now = testApp.app.get(Clock).now();
      expect((await client.post('/admin/two-factor', { code: totpCode(secret, now) })).status).toBe(303);
      expect((await client.get('/admin/users')).status).toBe(200);
      // The next sign-in asks for the code.
      const next = new ConsoleBrowser(() => testApp.http);
      await next.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
      expect((await next.get('/admin')).headers.location).toBe('/admin/login/second-factor');
      const code = totpCode(secret, new Date(now.getTime() + 30_000));
      expect((await next.post('/admin/login/second-factor', { code })).status).toBe(303);
      expect((await next.get('/admin')).status).toBe(200);
    });
  });
}
