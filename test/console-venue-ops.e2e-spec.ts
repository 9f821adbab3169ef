import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { newId } from '../src/common/ids.js';
import { NasClientEntity } from '../src/nas/entities/nas-client.entity.js';
import { NasService } from '../src/nas/nas.service.js';
import { searchUsernameOf } from '../src/radius/login-attempt-search.rules.js';
import { LoginAttemptEntity, type LoginOutcome } from '../src/radius/entities/login-attempt.entity.js';
import { REJECT_MESSAGES } from '../src/radius/radius.rules.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { VenueEntity } from '../src/venues/entities/venue.entity.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { api } from './support/api-client.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { givenGuest, givenUserWithSessions } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'a-very-long-nas-secret-0123456789';
const MINUTE = 60_000;

/** A figure of the dashboard by its data-figure name. */
function figure(html: string, name: string): string {
  const match = new RegExp(`data-figure="${name}">(?:<span[^>]*>)?([^<]*)<`).exec(html);
  if (match === null) throw new Error(`no figure ${name}`);
  return match[1];
}

/**
 * The dashboard, login attempts and the NAS and venue settings, as operators see them: figures from
 * the seeded rows, venue scope (nothing of venue B for an operator of venue A, also by URL), the
 * reasons in words, the NAS secret never shown again, and the administrators-only settings.
 */
describe.each(databaseKinds())('console: dashboard, login attempts, NAS and venues [%s]', (kind) => {
  let testApp: TestApp;
  let admin: ConsoleBrowser;
  let venueA: ConsoleBrowser;
  let readOnlyA: ConsoleBrowser;
  let nasA: NasClientEntity;
  let nasStale: NasClientEntity;
  let nasB: NasClientEntity;
  const usernameA = `guest-a-${Date.now().toString(36)}`;
  const usernameB = `guest-b-${Date.now().toString(36)}`;
  let userIdA: string;

  async function attempt(fields: Partial<LoginAttemptEntity> & { outcome: LoginOutcome }, ageMs: number) {
    await testApp.dataSource.getRepository(LoginAttemptEntity).insert({
      id: newId(),
      createdAt: new Date(Date.now() - ageMs),
      nasClientId: null,
      venueId: null,
      userId: null,
      username: null,
      macAddress: null,
      reason: null,
      ...fields,
      // As the service keeps it (login-attempts.e2e-spec.ts checks that it does).
      searchUsername: fields.username == null ? null : searchUsernameOf(fields.username),
    });
  }

  beforeAll(async () => {
    testApp = await startTestApp(kind);
    const nas = testApp.app.get(NasService);
    await testApp.app.get(VenuesService).set('venue-a', { displayName: 'Hotel Alpha' });
    const addNas = async (venueId: string, name: string, ip: string) => {
      const added = await nas.add({ venueId, name, ipAddress: ip, secret: SECRET });
      return testApp.dataSource.getRepository(NasClientEntity).findOneByOrFail({ id: added.id });
    };
    nasA = await addNas('venue-a', 'alpha-ap', '192.0.2.10');
    nasStale = await addNas('venue-a', 'alpha-stale', '192.0.2.11');
    nasB = await addNas('venue-b', 'bravo-ap', '192.0.2.20');

    // Venue A: two active users with one session each, one blocked, one expired guest; venue B: three users.
    const a1 = await givenUserWithSessions(testApp, { venues: ['venue-a'], user: { username: usernameA } });
    userIdA = a1.user._id;
    const a2 = await givenUserWithSessions(testApp, { venues: ['venue-a'] });
    const blocked = await givenUserWithSessions(testApp, { venues: ['venue-a'] });
    const expired = await givenGuest(testApp, { venueIds: ['venue-a'] });
    const b1 = await givenUserWithSessions(testApp, { venues: ['venue-b'], user: { username: usernameB } });
    await givenGuest(testApp, { venueIds: ['venue-b'] });
    await givenGuest(testApp, { venueIds: ['venue-b'] });
    const sessions = testApp.dataSource.getRepository(SessionEntity);
    await sessions.update(
      { id: a1.sessions[0].id },
      { nasClientId: nasA.id, lastAccountingAt: new Date(Date.now() - 1 * MINUTE) },
    );
    await sessions.update(
      { id: a2.sessions[0].id },
      { nasClientId: nasStale.id, lastAccountingAt: new Date(Date.now() - 120 * MINUTE) },
    );
    await sessions.update(
      { id: b1.sessions[0].id },
      { nasClientId: nasB.id, lastAccountingAt: new Date(Date.now() - 2 * MINUTE) },
    );
    // Blocking ends the session and writes a pending job (venue A); expiring the guest writes none (no session).
    const put = await api(testApp).users.update(blocked.user._id, { status: 'blocked' });
    expect(put.status).toBe(200);
    expect((await api(testApp).users.expire(expired._id)).status).toBe(200);
    // A failed job of a venue-B user, and a pending one of venue B.
    const bJob = await api(testApp).users.update(b1.user._id, { status: 'blocked' });
    expect(bJob.status).toBe(200);
    const jobs = testApp.dataSource.getRepository(UnauthJobEntity);
    const bJobs = await jobs.findBy({ userId: b1.user._id });
    await jobs.update({ id: bJobs[0].id }, { status: 'failed' });

    // Login attempts: in the last hour 2 accepted + 3 rejected in A, 1 rejected in B, 1 unknown NAS; older ones not counted.
    await attempt({ outcome: 'accept', venueId: 'venue-a', username: usernameA, userId: a1.user._id }, 5 * MINUTE);
    await attempt({ outcome: 'accept', venueId: 'venue-a', username: 'other' }, 10 * MINUTE);
    for (const reason of Object.keys(REJECT_MESSAGES)
      .filter((r) => r !== 'unknownNas')
      .slice(0, 3)) {
      await attempt(
        {
          outcome: 'reject',
          venueId: 'venue-a',
          username: usernameA,
          userId: a1.user._id,
          reason,
          nasClientId: nasA.id,
          macAddress: 'AA:BB:CC:00:00:01',
        },
        20 * MINUTE,
      );
    }
    await attempt(
      {
        outcome: 'reject',
        venueId: 'venue-b',
        username: usernameB,
        reason: 'blocked',
        macAddress: 'BB:BB:BB:00:00:02',
      },
      15 * MINUTE,
    );
    await attempt({ outcome: 'reject', venueId: null, username: 'stranger-nas', reason: 'unknownNas' }, 15 * MINUTE);
    await attempt({ outcome: 'reject', venueId: 'venue-a', username: usernameA, reason: 'expired' }, 3 * 60 * MINUTE);
    await attempt({ outcome: 'accept', venueId: 'venue-a', username: usernameA }, 2 * 60 * MINUTE);

    // One rejection per reason authorize records, in a venue of their own (older than the dashboard's hour).
    for (const reason of Object.keys(REJECT_MESSAGES)) {
      await attempt({ outcome: 'reject', venueId: 'venue-r', username: `r-${reason}`, reason }, 2 * 60 * MINUTE);
    }

    admin = (await signInConsole(testApp, { admin: true, permissions: ['delete'] })).console;
    venueA = (await signInConsole(testApp, { permissions: ['write'], venueIds: ['venue-a'] })).console;
    readOnlyA = (await signInConsole(testApp, { permissions: ['read'], venueIds: ['venue-a'] })).console;
  }, 120_000);

  afterAll(async () => {
    await testApp?.close();
  });

  describe('dashboard', () => {
    it("counts a venue-A operator's venue only: users by status, sessions, last hour's logins, jobs, NAS accounting", async () => {
      const page = await venueA.get('/admin');
      expect(page.status).toBe(200);
      expect(figure(page.text, 'users-active')).toBe('2');
      expect(figure(page.text, 'users-blocked')).toBe('1');
      expect(figure(page.text, 'users-expired')).toBe('1');
      expect(figure(page.text, 'sessions-online')).toBe('2');
      expect(figure(page.text, 'logins-accepted')).toBe('2');
      expect(figure(page.text, 'logins-rejected')).toBe('3');
      expect(figure(page.text, 'jobs-pending')).toBe('1');
      expect(figure(page.text, 'jobs-failed')).toBe('0');
      expect(page.text).toContain('alpha-ap');
      expect(page.text).toMatch(/data-nas="alpha-stale">[\s\S]*?Stale: silent too long/);
      expect(page.text).toMatch(/data-nas="alpha-ap">[\s\S]*?Reporting/);
      expect(page.text).toContain('Hotel Alpha');
      expect(page.text).not.toContain('bravo-ap');
      expect(page.text).not.toContain('venue-b');
    });

    it('counts every venue for an unrestricted administrator, the unknown NAS attempt included', async () => {
      const page = await admin.get('/admin');
      expect(figure(page.text, 'users-active')).toBe('4');
      expect(figure(page.text, 'users-blocked')).toBe('2');
      expect(figure(page.text, 'users-expired')).toBe('1');
      expect(figure(page.text, 'sessions-online')).toBe('2');
      expect(figure(page.text, 'logins-rejected')).toBe('5');
      expect(figure(page.text, 'jobs-pending')).toBe('1');
      expect(figure(page.text, 'jobs-failed')).toBe('1');
      expect(page.text).toContain('bravo-ap');
      const narrowed = await admin.get('/admin?venueId=venue-b');
      expect(figure(narrowed.text, 'users-active')).toBe('2');
      expect(figure(narrowed.text, 'jobs-failed')).toBe('1');
      expect(narrowed.text).not.toContain('alpha-ap');
    });

    it('refuses venue B by URL to a venue-A operator, and odd venue ids without a 500', async () => {
      const other = await venueA.get('/admin?venueId=venue-b');
      expect(other.status).toBe(403);
      expect(other.text).not.toContain('bravo-ap');
      expect((await venueA.get('/admin?venueId=' + 'x'.repeat(300))).status).toBe(400);
      expect((await venueA.get('/admin?venueId=%00%27')).status).toBe(400);
      expect((await venueA.get('/admin?venueId=a&venueId=b')).status).toBe(200);
    });
  });

  describe('login attempts', () => {
    it("shows a venue-A operator its venue's rejections, newest first, with the reason in words and the user linked", async () => {
      const page = await venueA.get('/admin/logins');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Wrong password or unknown user');
      expect(page.text).toContain('Device not registered');
      expect(page.text).toContain('Blocked');
      expect(page.text).toContain('Expired');
      expect(page.text).toContain('alpha-ap');
      expect(page.text).toContain('Hotel Alpha');
      expect(page.text).toMatch(new RegExp(`href="/admin/users/[^"?]+\\?venueId=venue-a">${usernameA}<`));
      expect(page.text).not.toContain(usernameB);
      expect(page.text).not.toContain('stranger-nas');
      expect(page.text).not.toContain('>Accepted<');
      const all = await venueA.get('/admin/logins?show=all');
      expect(all.text).toContain('>Accepted<');
    });

    it('searches by username and by MAC in any usual form; an empty search says what to try', async () => {
      const byMac = await venueA.get('/admin/logins?mac=aabb.cc00.0001');
      expect(byMac.status).toBe(200);
      expect((byMac.text.match(/badge bad/g) ?? []).length).toBe(3);
      const none = await venueA.get('/admin/logins?username=nobody-here');
      expect(none.text).toContain('No login attempt matches this search');
      const badMac = await venueA.get('/admin/logins?mac=not-a-mac');
      expect(badMac.status).toBe(422);
      expect(badMac.text).toContain('That is not a MAC address');
    });

    it("searches by the start of a username, case ignored, and never finds another venue's by it", async () => {
      const exact = await venueA.get(`/admin/logins?username=${usernameA}&show=all`);
      const rows = (exact.text.match(/<tr>/g) ?? []).length;
      expect(rows).toBeGreaterThan(1);
      const start = await venueA.get(`/admin/logins?username=${encodeURIComponent('  GUEST-A-')}&show=all`);
      expect(start.status).toBe(200);
      expect((start.text.match(/<tr>/g) ?? []).length).toBe(rows);
      expect(start.text).toContain(usernameA);
      // guest-b-… starts the same way but is venue B's.
      expect((await venueA.get('/admin/logins?username=GUEST-&show=all')).text).not.toContain(usernameB);
      expect((await admin.get('/admin/logins?username=GUEST-&show=all')).text).toContain(usernameB);
      // The middle of a username is no start.
      expect((await venueA.get('/admin/logins?username=uest-a&show=all')).text).toContain(
        'No login attempt matches this search',
      );
    });

    it("never shows venue B's attempts to a venue-A operator, by URL either", async () => {
      expect((await venueA.get(`/admin/logins?username=${usernameB}`)).text).not.toContain('BB:BB:BB:00:00:02');
      const forged = await venueA.get('/admin/logins?venueId=venue-b');
      expect(forged.status).toBe(403);
      expect(forged.text).not.toContain(usernameB);
    });

    it('shows the unknown NAS attempt to an unrestricted administrator', async () => {
      const page = await admin.get('/admin/logins');
      expect(page.text).toContain('stranger-nas');
      expect(page.text).toContain('Unknown NAS');
      expect(page.text).toContain(usernameB);
    });

    it("says a rejected login the same way on the user's page as on the login attempts, in both languages", async () => {
      for (const [language, rejected, reason] of [
        ['en', 'Rejected', 'Wrong password or unknown user'],
        ['tr', 'Reddedildi', 'Yanlış parola veya bilinmeyen kullanıcı'],
      ]) {
        const cookie = `${venueA.cookie}; lang=${language}`;
        const logins = await testApp.http.get(`/admin/logins?username=${usernameA}`).set('Cookie', cookie);
        const userPage = await testApp.http.get(`/admin/users/${userIdA}?venueId=venue-a`).set('Cookie', cookie);
        for (const page of [logins, userPage]) {
          expect(page.status).toBe(200);
          expect(page.text).toContain(`>${rejected}<`);
          expect(page.text).toContain(reason);
        }
        expect(userPage.text).not.toMatch(/>Refused</);
      }
    });

    it('gives every reason in words, in English and in Turkish', async () => {
      for (const language of ['en', 'tr']) {
        const catalogue = JSON.parse(
          readFileSync(join('src/console/logins', `messages.${language}.json`), 'utf8'),
        ) as Record<string, string>;
        const page = await testApp.http
          .get('/admin/logins?venueId=venue-r')
          .set('Cookie', `${admin.cookie}; lang=${language}`);
        for (const reason of Object.keys(REJECT_MESSAGES)) {
          const words = catalogue[`logins.reason.${reason}`].replace(/&/g, '&amp;').replace(/'/g, '&#39;');
          expect([language, reason, page.text.includes(words)]).toEqual([language, reason, true]);
        }
      }

      const page = await testApp.http.get('/admin/logins?show=all').set('Cookie', `${admin.cookie}; lang=tr`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Yanlış parola veya bilinmeyen kullanıcı');
      expect(page.text).toContain('Cihaz kayıtlı değil');
      expect(page.text).toContain('Bilinmeyen NAS');
      expect(page.text).toContain('İçeri alındı');
      const dashboard = await testApp.http.get('/admin').set('Cookie', `${admin.cookie}; lang=tr`);
      expect(dashboard.text).toContain('Son bir saatteki girişler');
    });

    it('answers odd paging and filters without a 500', async () => {
      for (const query of [
        'page=-1',
        'page=99999999',
        'page=abc',
        'show=%00',
        'username=' + 'u'.repeat(5000),
        'mac=' + 'f'.repeat(200),
      ]) {
        expect((await venueA.get(`/admin/logins?${query}`)).status).toBeLessThan(500);
      }
    });
  });

  describe('settings: NAS', () => {
    it('adds a NAS without ever showing its secret, records nas.add, and gives the radius-config step', async () => {
      const form = await admin.get('/admin/settings/nas/new');
      expect(form.status).toBe(200);
      const added = await admin.post('/admin/settings/nas/new', {
        venueId: 'venue-a',
        name: 'alpha-new',
        ipAddress: '192.0.2.30',
        secret: 'console-secret-0123456789abcdef',
        coaPort: '3799',
        vendor: 'mikrotik',
        acceptsCoa: 'on',
      });
      expect(added.status).toBe(303);
      expect(added.headers.location).toBe('/admin/settings/nas?notice=notice.nas.added');
      const list = await admin.get(added.headers.location);
      expect(list.text).toContain('alpha-new');
      expect(list.text).toContain('The NAS was added');
      expect(list.text).toContain('hotspot radius-config --out');
      expect(list.text).toContain('data-copy="radius-config-command"');
      expect(list.text).not.toContain('console-secret');
      expect(list.text).not.toContain(SECRET);
      const events = await testApp.dataSource.getRepository(AuditEventEntity).findBy({ action: 'nas.add' });
      expect(JSON.stringify(events)).not.toContain('console-secret');
      expect(events.some((event) => event.actorType === 'operator')).toBe(true);
    });

    it('warns about an unregistered venue as nas add does', async () => {
      const added = await admin.post('/admin/settings/nas/new', {
        venueId: 'venue-typo',
        name: 'typo-ap',
        ipAddress: '192.0.2.31',
        secret: 'console-secret-0123456789abcdef',
        coaPort: '3799',
        vendor: 'other',
      });
      expect(added.headers.location).toBe('/admin/settings/nas?notice=notice.nas.addedUnregistered');
      const list = await admin.get(added.headers.location);
      expect(list.text).toContain('its venue is not registered');
      expect(list.text).toMatch(/data-nas="typo-ap">[\s\S]*?Venue not registered/);
    });

    it('refuses a short secret with the message, shows the form again without it, and takes it with the override', async () => {
      const fields = {
        venueId: 'venue-a',
        name: 'short-ap',
        ipAddress: '192.0.2.40',
        secret: 'tiny-pw-9',
        coaPort: '3799',
        vendor: 'other',
      };
      const refused = await admin.post('/admin/settings/nas/new', fields);
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('at least 16 octets');
      expect(refused.text).toContain('value="short-ap"');
      expect(refused.text).not.toContain('tiny-pw-9');
      const overridden = await admin.post('/admin/settings/nas/new', { ...fields, allowShortSecret: 'on' });
      expect(overridden.status).toBe(303);
    });

    it('names the field of other problems, and a taken address, without a 500', async () => {
      const base = {
        venueId: 'venue-a',
        name: 'odd-ap',
        ipAddress: '192.0.2.50',
        secret: 'console-secret-0123456789abcdef',
        coaPort: '3799',
        vendor: 'other',
      };
      const cases: Array<[Record<string, string>, number, string]> = [
        [{ ipAddress: '192.0.2.0/24x' }, 422, 'Address:'],
        [{ ipAddress: '192.0.2.10' }, 409, 'alpha-ap'],
        [{ name: 'bad name!' }, 422, 'Name:'],
        [{ name: 'alpha-ap', ipAddress: '192.0.2.51' }, 409, 'a NAS with this name'],
        [{ coaPort: '70000' }, 422, 'Disconnect/CoA port'],
        [{ coaPort: 'abc' }, 422, 'Disconnect/CoA port'],
        [{ vendor: 'acme' }, 422, 'Vendor:'],
        [{ venueId: '' }, 422, 'Venue:'],
        [{ secret: 'with"quote-0123456789abc' }, 422, 'Shared secret'],
        [{ secret: 'x'.repeat(5000) }, 422, 'Shared secret'],
      ];
      for (const [change, status, text] of cases) {
        const answer = await admin.post('/admin/settings/nas/new', { ...base, ...change });
        expect([change, answer.status]).toEqual([change, status]);
        expect(answer.text).toContain(text);
      }
    });

    it('removes a NAS only after the confirmation page, with the radius-config step', async () => {
      const target = (await testApp.app.get(NasService).list()).find((nas) => nas.name === 'typo-ap')!;
      const confirm = await admin.get(`/admin/settings/nas/${target.id}/remove`);
      expect(confirm.status).toBe(200);
      expect(confirm.text).toContain('Remove the NAS typo-ap?');
      expect((await testApp.app.get(NasService).list()).some((nas) => nas.id === target.id)).toBe(true);
      const removed = await admin.post(`/admin/settings/nas/${target.id}/remove`, {});
      expect(removed.headers.location).toBe('/admin/settings/nas?notice=notice.nas.removed');
      const list = await admin.get(removed.headers.location);
      expect(list.text).toContain('The NAS was removed');
      expect(list.text).toContain('hotspot radius-config');
      expect(list.text).not.toContain('typo-ap');
      expect((await admin.get(`/admin/settings/nas/${target.id}/remove`)).status).toBe(404);
      expect((await admin.post(`/admin/settings/nas/${target.id}/remove`, {})).status).toBe(404);
      expect((await admin.get('/admin/settings/nas/alpha-ap/remove')).status).toBe(404);
    });

    it('lists each NAS with its venue name, address, CoA port and last accounting', async () => {
      const list = await admin.get('/admin/settings/nas');
      expect(list.text).toMatch(/data-nas="alpha-ap"><td>alpha-ap<\/td>\s*<td>Hotel Alpha/);
      expect(list.text).toContain('192.0.2.10');
      expect(list.text).toContain('Port 3799');
      expect(list.text).toMatch(/data-nas="alpha-stale">[\s\S]*?Stale/);
    });
  });

  describe('settings: venues', () => {
    it('adds a venue, then edits it; its display name shows in the console; each recorded for the operator', async () => {
      const added = await admin.post('/admin/settings/venues/new', {
        id: 'venue-c',
        displayName: 'Hotel Charlie',
        timeZone: 'Europe/Istanbul',
        ssid: 'Charlie Guest',
        portalUrl: 'https://wifi.example.com/login',
        checkOutTime: '11:00',
      });
      expect(added.status).toBe(303);
      expect(added.headers.location).toBe('/admin/settings/venues?notice=notice.venues.added');
      const list = await admin.get(added.headers.location);
      expect(list.text).toContain('Hotel Charlie');
      expect(list.text).toContain('Europe/Istanbul');
      expect(list.text).toContain('https://wifi.example.com/login');
      const edit = await admin.get('/admin/settings/venues/venue-c/edit');
      expect(edit.text).toContain('<option value="Europe/Istanbul" selected>');
      expect(edit.text).toMatch(/name="checkOutTime" type="time" step="60" value="11:00"/);
      const saved = await admin.post('/admin/settings/venues/venue-c/edit', {
        displayName: 'Hotel Charlie & Spa',
        timeZone: '',
        ssid: '',
        portalUrl: '',
        checkOutTime: '',
      });
      expect(saved.headers.location).toBe('/admin/settings/venues?notice=notice.venues.saved');
      const venue = await testApp.dataSource.getRepository(VenueEntity).findOneByOrFail({ id: 'venue-c' });
      expect(venue).toMatchObject({
        displayName: 'Hotel Charlie & Spa',
        timeZone: null,
        ssid: null,
        portalUrl: null,
        checkOutTime: null,
      });
      expect((await admin.get('/admin/settings/venues')).text).toContain('Hotel Charlie &amp; Spa');
      expect((await admin.get('/admin?venueId=venue-c')).text).toContain('Figures of Hotel Charlie &amp; Spa.');
      const events = await testApp.dataSource.getRepository(AuditEventEntity).findBy({ targetId: 'venue-c' });
      expect(events.map((event) => [event.action, event.actorType]).sort()).toEqual([
        ['venue.create', 'operator'],
        ['venue.update', 'operator'],
      ]);
    });

    it('shows a problem naming the field, and refuses an id registered already', async () => {
      const cases: Array<[Record<string, string>, number, string]> = [
        [{ id: 'bad id' }, 422, 'Venue id:'],
        [{ id: '' }, 422, 'Venue id:'],
        [{ id: 'venue-a' }, 409, 'registered already'],
        [{ id: 'venue-d', timeZone: 'Mars/Olympus' }, 422, 'Time zone:'],
        [{ id: 'venue-d', portalUrl: 'javascript:alert(1)' }, 422, 'Captive-portal login URL:'],
        [{ id: 'venue-d', ssid: 'x'.repeat(40) }, 422, 'SSID:'],
        [{ id: 'venue-d', displayName: 'x'.repeat(101) }, 422, 'Display name:'],
        [{ id: 'venue-d', displayName: 'tab\there' }, 422, 'Display name:'],
        [{ id: 'venue-d', checkOutTime: '25:00' }, 422, 'Check-out time:'],
      ];
      for (const [form, status, text] of cases) {
        const answer = await admin.post('/admin/settings/venues/new', form);
        expect([form, answer.status]).toEqual([form, status]);
        expect(answer.text).toContain(text);
      }
      expect(await testApp.dataSource.getRepository(VenueEntity).findOneBy({ id: 'venue-d' })).toBeNull();
      expect((await admin.get('/admin/settings/venues/nope/edit')).status).toBe(404);
      expect((await admin.post('/admin/settings/venues/nope/edit', { displayName: 'x' })).status).toBe(404);
    });

    it('states whether VENUES_REGISTERED_ONLY is on', async () => {
      expect((await admin.get('/admin/settings/venues')).text).toContain('VENUES_REGISTERED_ONLY is off');
    });
  });

  describe('jobs of a deleted user', () => {
    it("still count for the venues of the job's sessions, and for no other venue", async () => {
      const pendingOf = async (browser: ConsoleBrowser) =>
        Number(figure((await browser.get('/admin')).text, 'jobs-pending'));
      const before = await pendingOf(venueA);
      const adminBefore = await pendingOf(admin);
      const { user } = await givenUserWithSessions(testApp, { venues: ['venue-a'] });
      expect((await api(testApp).users.remove(user._id)).status).toBeLessThan(300);
      expect(await pendingOf(venueA)).toBe(before + 1);
      expect(await pendingOf(admin)).toBe(adminBefore + 1);
      expect(Number(figure((await admin.get('/admin?venueId=venue-b')).text, 'jobs-pending'))).toBe(0);
    });
  });

  describe('rights', () => {
    it('refuses every settings page and form to non-administrators, changing nothing', async () => {
      const nasId = nasA.id;
      for (const browser of [venueA, readOnlyA]) {
        for (const path of [
          '/admin/settings/nas',
          '/admin/settings/nas/new',
          `/admin/settings/nas/${nasId}/remove`,
          '/admin/settings/venues',
          '/admin/settings/venues/new',
          '/admin/settings/venues/venue-a/edit',
        ]) {
          expect([path, (await browser.get(path)).status]).toEqual([path, 403]);
        }
        const posts: Array<[string, Record<string, string>]> = [
          [
            '/admin/settings/nas/new',
            {
              venueId: 'venue-a',
              name: 'forged',
              ipAddress: '192.0.2.99',
              secret: SECRET,
              coaPort: '3799',
              vendor: 'other',
            },
          ],
          [`/admin/settings/nas/${nasId}/remove`, {}],
          ['/admin/settings/venues/new', { id: 'forged' }],
          ['/admin/settings/venues/venue-a/edit', { displayName: 'Forged' }],
        ];
        for (const [path, form] of posts) expect([path, (await browser.post(path, form)).status]).toEqual([path, 403]);
      }
      expect((await testApp.app.get(NasService).list()).some((nas) => nas.name === 'forged')).toBe(false);
      expect((await testApp.dataSource.getRepository(VenueEntity).findOneByOrFail({ id: 'venue-a' })).displayName).toBe(
        'Hotel Alpha',
      );
      expect(nasB.venueId).toBe('venue-b');
    });

    it('shows a read-only operator the dashboard and login attempts, with no settings link and no change control', async () => {
      const page = await readOnlyA.get('/admin');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('/admin/settings/nas');
      const logins = await readOnlyA.get('/admin/logins');
      expect(logins.status).toBe(200);
      expect(logins.text).not.toMatch(/method="post" action="\/admin\/(?!logout|language)/);
    });
  });
});
