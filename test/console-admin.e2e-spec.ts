import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { ApiTokenEntity } from '../src/auth/entities/api-token.entity.js';
import { OperatorEntity } from '../src/operators/entities/operator.entity.js';
import { LastActiveAdminError, OperatorsService } from '../src/operators/operators.service.js';
import type { AuditActor } from '../src/audit/audit.rules.js';
import { In } from 'typeorm';
import {
  ConsoleBrowser,
  givenOperator,
  OPERATOR_PASSWORD,
  recoveryCodesOf,
  signInConsole,
  totpCode,
  type SignedInConsole,
} from './support/console.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Settings → API access and Operators, the audit log and My account, as an operator's browser uses
 * them: every change through the services the CLI and v1 use (audit rows with the operator as the
 * actor), secrets shown once, admin-only pages refused to others, venue scope in the audit log.
 */

/** The promise is 1 s on every instance; the rest is slack for a loaded machine. */
const WITHIN_MS = 1500;
let sequence = 0;
const email = (prefix: string) => `${prefix}${++sequence}-${Date.now().toString(36)}@venue.example`;

/** The text of the element with this id. */
function textById(html: string, id: string): string {
  const match = new RegExp(`id="${id}"[^>]*>([^<]+)<`).exec(html);
  if (match === null) throw new Error(`no #${id} in the page`);
  return match[1].trim();
}

for (const kind of databaseKinds()) {
  describe(`console admin screens [${kind}]`, () => {
    let database: TestDatabase;
    let one: TestApp;
    let two: TestApp;
    let admin: SignedInConsole;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      one = await startTestApp(kind, {}, { database });
      two = await startTestApp(kind, {}, { database });
      admin = await signInConsole(one, {
        admin: true,
        permissions: ['read', 'write', 'delete'],
        email: email('admin'),
      });
    }, 60_000);

    afterAll(async () => {
      await one?.close();
      await two?.close();
      await database?.drop();
    });

    const auditRows = () => one.dataSource.getRepository(AuditEventEntity).find();
    const operatorRow = (id: string) => one.dataSource.getRepository(OperatorEntity).findOneByOrFail({ id });
    const api = (app: TestApp, token: string, path: string) =>
      app.http.get(`/api/v1${path}`).set('Authorization', `Bearer ${token}`);

    async function createToken(form: Record<string, string>): Promise<{ value: string; id: string }> {
      const created = await admin.console.post('/admin/settings/tokens', form);
      expect(created.status).toBe(303);
      const page = await admin.console.follow(created);
      expect(page.status).toBe(200);
      const value = textById(page.text, 'token-value');
      const record = await one.dataSource.getRepository(ApiTokenEntity).findOneByOrFail({ name: form.name });
      return { value, id: record.id };
    }

    describe('Settings → API access', () => {
      it('creates a token that works on /api/v1 with its permissions and venues, its value shown only once', async () => {
        const form = await admin.console.get('/admin/settings/tokens/new');
        expect(form.status).toBe(200);
        expect(form.text).toContain('name="permissions" value="radius"');
        const { value, id } = await createToken({
          name: 'front desk A',
          permissions: 'read',
          scope: 'some',
          other: 'venue-a',
          expires: '2099-12-31',
        });
        expect(value).toMatch(/^hsp_/);

        expect((await api(one, value, '/hotspot-users?venueId=venue-a')).status).toBe(200);
        expect((await api(two, value, '/hotspot-users?venueId=venue-a')).status).toBe(200);
        expect((await api(one, value, '/hotspot-users?venueId=venue-b')).status).toBe(403);
        const write = await one.http
          .post('/api/v1/hotspot-users')
          .set('Authorization', `Bearer ${value}`)
          .send({ name: 'x', loginMethod: 'guest', venueIds: ['venue-a'] });
        expect(write.status).toBe(403);

        const list = await admin.console.get('/admin/settings/tokens');
        expect(list.status).toBe(200);
        expect(list.text).toContain('front desk A');
        const { prefix } = await one.dataSource.getRepository(ApiTokenEntity).findOneByOrFail({ id });
        expect(list.text).toContain(`<code>${prefix}…</code>`);
        expect(list.text).not.toContain(value);
        expect((await admin.console.get(`/admin/settings/tokens/${id}/revoke`)).text).not.toContain(value);

        const rows = await auditRows();
        expect(JSON.stringify(rows)).not.toContain(value);
        expect(rows.find((row) => row.action === 'token.create' && row.targetId === id)).toMatchObject({
          actorType: 'operator',
          actorId: admin.operator.id,
          actorName: admin.operator.email,
          venueIds: ['venue-a'],
        });
        const stored = await one.dataSource.getRepository(ApiTokenEntity).findOneByOrFail({ id });
        expect(stored).toMatchObject({ permissions: ['read'], venueIds: ['venue-a'] });
        expect(stored.expiresAt?.toISOString()).toBe('2100-01-01T00:00:00.000Z');
      });

      it('revokes a token after a confirmation: /api/v1 refuses it at once here and within 1 s on another instance', async () => {
        const { value, id } = await createToken({ name: 'to revoke', permissions: 'delete', scope: 'all' });
        // Both instances have the token cached as valid.
        expect((await api(one, value, '/hotspot-users?venueId=venue-a')).status).toBe(200);
        expect((await api(two, value, '/hotspot-users?venueId=venue-a')).status).toBe(200);

        const confirm = await admin.console.get(`/admin/settings/tokens/${id}/revoke`);
        expect(confirm.status).toBe(200);
        expect(confirm.text).toContain(`action="/admin/settings/tokens/${id}/revoke"`);
        const revoked = await admin.console.post(`/admin/settings/tokens/${id}/revoke`, {});
        const at = Date.now();
        expect(revoked.status).toBe(303);
        expect(revoked.headers.location).toBe('/admin/settings/tokens?notice=notice.tokens.revoked');
        expect((await api(one, value, '/hotspot-users?venueId=venue-a')).status).toBe(401);
        let refusedAfter = -1;
        while (Date.now() - at < 3000) {
          if ((await api(two, value, '/hotspot-users?venueId=venue-a')).status === 401) {
            refusedAfter = Date.now() - at;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(refusedAfter).toBeGreaterThanOrEqual(0);
        expect(refusedAfter).toBeLessThan(WITHIN_MS);

        const rows = (await auditRows()).filter((row) => row.action === 'token.revoke' && row.targetId === id);
        expect(rows).toEqual([expect.objectContaining({ actorType: 'operator', actorId: admin.operator.id })]);
        const list = await admin.console.get('/admin/settings/tokens?notice=notice.tokens.revoked');
        expect(list.text).toContain('The token is revoked.');
        expect(list.text).not.toContain(`/admin/settings/tokens/${id}/revoke`);
      });

      it('shows the form again with its problem for bad input, never a 500', async () => {
        const bad: Array<Record<string, string>> = [
          { name: '', permissions: 'read', scope: 'all' },
          { name: 'x'.repeat(101), permissions: 'read', scope: 'all' },
          { name: 'x', scope: 'all' },
          { name: 'x', permissions: 'admin', scope: 'all' },
          { name: 'x', permissions: 'radius', scope: 'some', other: '' },
          { name: 'x', permissions: 'read', scope: 'some', other: 'bad venue!' },
          { name: 'x', permissions: 'read', scope: 'nonsense' },
          { name: 'x', permissions: 'read', scope: 'all', expires: '2020-01-01' },
          { name: 'x', permissions: 'read', scope: 'all', expires: '2030-02-30' },
          { name: 'x', permissions: 'read', scope: 'all', expires: 'x'.repeat(5000) },
        ];
        for (const form of bad) {
          const answer = await admin.console.post('/admin/settings/tokens', form);
          expect([JSON.stringify(form).slice(0, 80), answer.status]).toEqual([JSON.stringify(form).slice(0, 80), 422]);
          expect(answer.text).toContain('class="problem"');
        }
        const answer = await admin.console.post('/admin/settings/tokens', {
          name: '<script>x</script>',
          permissions: 'read',
          scope: 'all',
          expires: 'nope',
        });
        expect(answer.text).toContain('&lt;script&gt;');
        for (const path of [
          '/admin/settings/tokens/nope/revoke',
          `/admin/settings/tokens/${'x'.repeat(2000)}/revoke`,
        ]) {
          expect((await admin.console.get(path)).status).toBe(404);
          expect((await admin.console.post(path, {})).status).toBe(404);
        }
      });
    });

    describe('Settings → Operators', () => {
      it('creates an operator whose one-time password, shown once, signs it in', async () => {
        const address = email('desk');
        const created = await admin.console.post('/admin/settings/operators', {
          email: address,
          name: 'Desk A',
          permissions: 'write',
          scope: 'some',
          other: 'venue-a',
        });
        expect(created.status).toBe(303);
        const password = textById((await admin.console.follow(created)).text, 'one-time-password');
        expect(password).toMatch(/^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/);
        const stored = await one.dataSource.getRepository(OperatorEntity).findOneByOrFail({ emailKey: address });
        expect(stored).toMatchObject({ name: 'Desk A', permissions: ['write'], venueIds: ['venue-a'], admin: false });
        expect(Boolean(stored.mustChangePassword)).toBe(true);

        const list = await admin.console.get('/admin/settings/operators');
        expect(list.text).toContain(address);
        expect(list.text).not.toContain(password);
        const newcomer = new ConsoleBrowser(() => one.http);
        const login = await newcomer.post('/admin/login', { email: address, password });
        expect(login.status).toBe(303);
        expect((await newcomer.get('/admin')).headers.location).toBe('/admin/password');

        const rows = await auditRows();
        expect(JSON.stringify(rows)).not.toContain(password);
        expect(rows.find((row) => row.action === 'operator.create' && row.targetId === stored.id)).toMatchObject({
          actorType: 'operator',
          actorId: admin.operator.id,
        });

        const taken = await admin.console.post('/admin/settings/operators', {
          email: address.toUpperCase(),
          name: 'Again',
          permissions: 'read',
          scope: 'all',
        });
        expect(taken.status).toBe(422);
        expect(taken.text).toContain('exists already');
      });

      it('changes rights and venues after the confirmation; the operator is signed out', async () => {
        const target = await signInConsole(one, { permissions: ['read'], venueIds: ['venue-a'] });
        expect((await target.console.get('/admin')).status).toBe(200);
        const path = `/admin/settings/operators/${target.operator.id}`;
        const page = await admin.console.get(path);
        expect(page.status).toBe(200);
        expect(page.text).toContain('value="venue-a" checked');
        const form = { name: 'Renamed', permissions: 'write', scope: 'some', venues: 'venue-a', other: 'venue-c' };
        const unconfirmed = await admin.console.post(path, form);
        expect(unconfirmed.status).toBe(422);
        expect((await operatorRow(target.operator.id)).name).not.toBe('Renamed');

        const saved = await admin.console.post(path, { ...form, confirm: 'yes' });
        expect(saved.status).toBe(303);
        expect(saved.headers.location).toBe(`${path}?notice=notice.operators.changed`);
        expect(await operatorRow(target.operator.id)).toMatchObject({
          name: 'Renamed',
          permissions: ['write'],
          venueIds: ['venue-a', 'venue-c'],
        });
        expect((await target.console.get('/admin')).status).toBe(303);
        const row = (await auditRows()).find(
          (event) => event.action === 'operator.update' && event.targetId === target.operator.id,
        );
        expect(row).toMatchObject({ actorId: admin.operator.id, changedFields: ['name', 'permissions', 'venueIds'] });
      });

      it('disables (ending its sessions) and enables an operator, each confirmed', async () => {
        const target = await signInConsole(one, { permissions: ['read'] });
        const path = `/admin/settings/operators/${target.operator.id}`;
        expect((await admin.console.get(`${path}/disable`)).text).toContain(`action="${path}/disable"`);
        expect((await admin.console.post(`${path}/disable`, {})).headers.location).toBe(
          `${path}?notice=notice.operators.disable`,
        );
        expect((await operatorRow(target.operator.id)).status).toBe('disabled');
        expect((await target.console.get('/admin')).status).toBe(303);
        const again = new ConsoleBrowser(() => one.http);
        expect(
          (await again.post('/admin/login', { email: target.operator.email, password: OPERATOR_PASSWORD })).status,
        ).toBe(401);
        expect((await admin.console.post(`${path}/enable`, {})).status).toBe(303);
        expect((await operatorRow(target.operator.id)).status).toBe('active');
        const actions = (await auditRows())
          .filter((row) => row.targetId === target.operator.id && row.actorId === admin.operator.id)
          .map((row) => row.action);
        expect(actions.sort()).toEqual(['operator.disable', 'operator.enable']);
      });

      it('resets the second factor and the password (a one-time password shown once)', async () => {
        const target = await signInConsole(one, { admin: true, permissions: ['read'] });
        const path = `/admin/settings/operators/${target.operator.id}`;
        expect((await operatorRow(target.operator.id)).totpEnrolledAt).not.toBeNull();
        expect((await admin.console.post(`${path}/reset-2fa`, {})).status).toBe(303);
        expect(await operatorRow(target.operator.id)).toMatchObject({ totpSecret: null, totpEnrolledAt: null });
        expect((await target.console.get('/admin')).status).toBe(303);

        const reset = await admin.console.post(`${path}/reset-password`, {});
        expect(reset.status).toBe(303);
        const password = textById((await admin.console.follow(reset)).text, 'one-time-password');
        const fresh = new ConsoleBrowser(() => one.http);
        expect((await fresh.post('/admin/login', { email: target.operator.email, password })).status).toBe(303);
        expect((await admin.console.get(path)).text).not.toContain(password);
        const actions = (await auditRows())
          .filter((row) => row.targetId === target.operator.id && row.actorId === admin.operator.id)
          .map((row) => row.action);
        expect(actions.sort()).toEqual(['2fa.reset', 'operator.reset-password']);
        expect(JSON.stringify(await auditRows())).not.toContain(password);
      });

      it('refuses, with its message, to disable or demote the last active administrator', async () => {
        const repository = one.dataSource.getRepository(OperatorEntity);
        const others = (await repository.findBy({ admin: true, status: 'active' })).filter(
          (operator) => operator.id !== admin.operator.id,
        );
        for (const other of others) await repository.update({ id: other.id }, { status: 'disabled' });
        try {
          const self = `/admin/settings/operators/${admin.operator.id}`;
          const disable = await admin.console.post(`${self}/disable`, {});
          expect(disable.status).toBe(409);
          expect(disable.text).toContain('would leave no active administrator');
          const demote = await admin.console.post(self, {
            name: 'Me',
            permissions: 'delete',
            scope: 'all',
            confirm: 'yes',
          });
          expect(demote.status).toBe(422);
          expect(demote.text).toContain('would leave no active administrator');
          expect(await operatorRow(admin.operator.id)).toMatchObject({ status: 'active', admin: true });
        } finally {
          for (const other of others) await repository.update({ id: other.id }, { status: 'active' });
        }
      });

      it('of two administrators disabling each other at the same moment, one is refused: an active one is left', async () => {
        const repository = one.dataSource.getRepository(OperatorEntity);
        const operators = one.app.get(OperatorsService);
        // Two fresh administrators race, so the signed-in one keeps its session: a disable moves
        // rights_version on and would end it. The others step aside by status alone meanwhile.
        const others = await repository.findBy({ admin: true, status: 'active' });
        for (const other of others) await repository.update({ id: other.id }, { status: 'disabled' });
        const first = await givenOperator(one, { admin: true, permissions: ['delete'] });
        const second = await givenOperator(one, { admin: true, permissions: ['delete'] });
        const actor = (operator: { id: string; email: string }): AuditActor => ({
          type: 'operator',
          id: operator.id,
          name: operator.email,
        });
        try {
          for (let round = 0; round < 5; round += 1) {
            const outcomes = await Promise.allSettled([
              operators.disable(second.id, actor(first)),
              operators.disable(first.id, actor(second)),
            ]);
            const refused = outcomes.filter(
              (outcome) => outcome.status === 'rejected' && outcome.reason instanceof LastActiveAdminError,
            );
            expect({ round, refused: refused.length }).toEqual({ round, refused: 1 });
            expect(await repository.countBy({ admin: true, status: 'active' })).toBe(1);
            await repository.update({ id: In([first.id, second.id]) }, { status: 'active' });
          }
        } finally {
          await repository.update({ id: In([first.id, second.id]) }, { status: 'disabled' });
          for (const other of others) await repository.update({ id: other.id }, { status: 'active' });
        }
        expect((await admin.console.get('/admin/settings/operators')).status).toBe(200);
      });

      it('answers odd ids and fields with a page, never a 500', async () => {
        for (const path of [
          '/admin/settings/operators/nope',
          `/admin/settings/operators/${'x'.repeat(3000)}`,
          `/admin/settings/operators/${admin.operator.id}/explode`,
        ]) {
          expect((await admin.console.get(path)).status).toBe(404);
          expect((await admin.console.post(path, { confirm: 'yes' })).status).toBe(404);
        }
        for (const form of <Array<Record<string, string>>>[
          { email: 'not an email', name: 'x', permissions: 'read', scope: 'all' },
          { email: email('x'), name: '', permissions: 'read', scope: 'all' },
          { email: email('x'), name: 'x', permissions: 'radius', scope: 'all' },
          { email: email('x'), name: 'x', scope: 'all' },
          { email: email('x'), name: 'x', permissions: 'read', scope: 'some', other: '' },
        ]) {
          expect((await admin.console.post('/admin/settings/operators', form)).status).toBe(422);
        }
      });
    });

    describe('Audit log', () => {
      let userA: string;
      let userB: string;

      beforeAll(async () => {
        userA = (await givenUser(one, { venueIds: ['venue-a'] }))._id;
        userB = (await givenUser(one, { venueIds: ['venue-b'] }))._id;
      });

      it('filters by action, actor, target and time, newest first', async () => {
        const byAction = await admin.console.get('/admin/audit?action=user.create');
        expect(byAction.status).toBe(200);
        expect(byAction.text).toContain(userA);
        expect(byAction.text).toContain(userB);
        expect(byAction.text.indexOf(userB)).toBeLessThan(byAction.text.indexOf(userA));
        expect(byAction.text).not.toContain('<td>API token created</td>');

        const byActor = await admin.console.get(
          `/admin/audit?actorType=operator&actor=${encodeURIComponent(admin.operator.email)}&action=token.create`,
        );
        // Actions, actors and targets in words.
        expect(byActor.text).toContain('<td>API token created</td>');
        expect(byActor.text).toContain('<td>Operator: <bdi>');
        expect(byActor.text).not.toContain(userA);
        const byTokenActor = await admin.console.get('/admin/audit?actorType=cli');
        expect(byTokenActor.text).not.toContain(userA);

        const byTarget = await admin.console.get(`/admin/audit?targetType=user&targetId=${userB}`);
        expect(byTarget.text).toContain(userB);
        expect(byTarget.text).not.toContain(userA);

        expect((await admin.console.get('/admin/audit?from=2099-01-01T00:00')).text).not.toContain(userA);
        expect((await admin.console.get('/admin/audit?to=2000-01-01T00:00')).text).not.toContain(userA);
        const window = await admin.console.get(
          '/admin/audit?from=2000-01-01T00:00&to=2099-01-01T00:00&action=user.create',
        );
        expect(window.text).toContain(userA);
      });

      it('shows an operator of venue A only rows of venue A, never tokens, operators or venue B', async () => {
        // An unrestricted reader sees these rows.
        const all = await admin.console.get('/admin/audit');
        for (const shown of ['API token created', 'Signed in']) expect(all.text).toContain(`<td>${shown}</td>`);
        const venueA = await signInConsole(one, { permissions: ['read'], venueIds: ['venue-a'] });
        const page = await venueA.console.get('/admin/audit');
        expect(page.status).toBe(200);
        expect(page.text).toContain(userA);
        expect(page.text).not.toContain(userB);
        expect(page.text).not.toContain('venue-b');
        expect(page.text).toContain('<td>User created</td>');
        for (const shownElsewhere of ['API token created', 'Operator created', 'Signed in']) {
          expect(page.text).not.toContain(`<td>${shownElsewhere}</td>`);
        }
        for (const query of [
          `targetId=${userB}`,
          'targetType=token',
          'targetType=operator',
          `actor=${encodeURIComponent(admin.operator.email)}`,
          'action=token.create',
        ]) {
          const answer = await venueA.console.get(`/admin/audit?${query}`);
          expect(answer.status).toBe(200);
          // The filter form shows what was typed; no row is listed.
          expect(answer.text).not.toContain(`<code>${userB}</code>`);
          expect(answer.text).not.toContain('<tbody>');
        }
      });

      it('answers bad filters with the form and its problem, never a 500', async () => {
        for (const query of [
          'action=nope',
          'actorType=robot',
          'targetType=planet',
          'from=yesterday',
          'to=2026-02-30T10:00',
          `actor=${'x'.repeat(2000)}`,
          `targetId=${'x'.repeat(100)}`,
        ]) {
          const answer = await admin.console.get(`/admin/audit?${query}`);
          expect([query.slice(0, 30), answer.status]).toEqual([query.slice(0, 30), 400]);
          expect(answer.text).toContain('class="problem"');
        }
        for (const query of ['page=abc', 'page=-1', 'page=999999', 'action=user.create&action=user.delete']) {
          expect((await admin.console.get(`/admin/audit?${query}`)).status).toBe(200);
        }
      });
    });

    describe('My account', () => {
      it('saves the time zone, and dates on the pages show in it', async () => {
        const me = await signInConsole(one, { permissions: ['read'], venueIds: ['venue-a'] });
        expect((await me.console.post('/admin/account/time-zone', { timeZone: 'Mars/Olympus' })).status).toBe(422);
        const saved = await me.console.post('/admin/account/time-zone', { timeZone: 'Asia/Tokyo' });
        expect(saved.headers.location).toBe('/admin/account?notice=notice.account.timeZone');
        expect((await operatorRow(me.operator.id)).timeZone).toBe('Asia/Tokyo');
        expect((await me.console.get('/admin/account')).text).toContain('<option selected>Asia/Tokyo</option>');
        const audit = await me.console.get('/admin/audit');
        const time = /<time datetime="([^"]+)"[^>]*>([^<]+)<\/time>/.exec(audit.text);
        expect(time).not.toBeNull();
        const expected = new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Asia/Tokyo',
          dateStyle: 'medium',
          timeStyle: 'medium',
        }).format(new Date(time![1]));
        expect(time![2]).toBe(expected);
        const row = (await auditRows()).find(
          (event) => event.targetId === me.operator.id && event.action === 'operator.update',
        );
        expect(row).toMatchObject({ changedFields: ['timeZone'] });
      });

      it('makes new recovery codes (the old ones stop working), confirmed by the password or a code', async () => {
        const me = await signInConsole(one, { admin: true, permissions: ['read'] });
        const refused = await me.console.post('/admin/account/recovery-codes', { password: 'wrong password!' });
        expect(refused.status).toBe(422);
        const made = await me.console.post('/admin/account/recovery-codes', { password: OPERATOR_PASSWORD });
        expect(made.status).toBe(303);
        const first = recoveryCodesOf((await me.console.follow(made)).text);
        expect(first).toHaveLength(10);
        // A TOTP code from the step after the enrolment's confirms too.
        const second = recoveryCodesOf(
          (
            await me.console.follow(
              await me.console.post('/admin/account/recovery-codes', {
                code: totpCode(me.totpSecret!, new Date(Date.now() + 30_000)),
              }),
            )
          ).text,
        );
        expect(second).toHaveLength(10);
        const rows = (await auditRows()).filter(
          (event) => event.targetId === me.operator.id && event.action === 'operator.update',
        );
        expect(rows.map((event) => event.changedFields)).toEqual([['recoveryCodes'], ['recoveryCodes']]);
        expect(JSON.stringify(rows)).not.toContain(first[0]);

        const browser = new ConsoleBrowser(() => one.http);
        expect(
          (await browser.post('/admin/login', { email: me.operator.email, password: OPERATOR_PASSWORD })).status,
        ).toBe(303);
        expect((await browser.post('/admin/login/recovery', { code: first[0] })).status).toBe(401);
        expect((await browser.post('/admin/login/recovery', { code: second[0] })).status).toBe(303);
      });

      it('slows wrong proofs for new recovery codes down as it slows failed sign-ins: a session cannot guess the password', async () => {
        const me = await signInConsole(one, { admin: true, permissions: ['read'] });
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 4; attempt += 1) {
          statuses.push(
            (await me.console.post('/admin/account/recovery-codes', { password: `wrong ${attempt}!` })).status,
          );
        }
        expect(statuses).toEqual([422, 422, 422, 429]);
        const waiting = await me.console.post('/admin/account/recovery-codes', { password: OPERATOR_PASSWORD });
        expect(waiting.status).toBe(429);
        expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
        expect(waiting.text).toContain('Too many failed attempts for this account');
        expect(recoveryCodesOf(waiting.text)).toEqual([]);
        // The sign-in form waits for the same account too.
        const browser = new ConsoleBrowser(() => one.http);
        expect(
          (await browser.post('/admin/login', { email: me.operator.email, password: OPERATOR_PASSWORD })).status,
        ).toBe(429);
      });

      it('signs out everywhere', async () => {
        const me = await signInConsole(one, { permissions: ['read'] });
        const elsewhere = new ConsoleBrowser(() => two.http);
        await elsewhere.post('/admin/login', { email: me.operator.email, password: OPERATOR_PASSWORD });
        // The enrolment took this step's code: the next one, as the authenticator shows it 30 s on.
        const code = totpCode(me.totpSecret!, new Date(Date.now() + 30_000));
        expect((await elsewhere.post('/admin/login/second-factor', { code })).status).toBe(303);
        expect((await elsewhere.get('/admin/account')).status).toBe(200);
        const page = await me.console.get('/admin/account');
        expect(page.text).toContain('action="/admin/logout-everywhere"');
        expect((await me.console.post('/admin/logout-everywhere', {})).headers.location).toBe('/admin/login');
        expect((await elsewhere.get('/admin/account')).status).toBe(303);
      });
    });

    describe('rights', () => {
      it('refuses every settings page and change to an operator who is not an administrator', async () => {
        const { console: staff } = await signInConsole(one, { permissions: ['read', 'write', 'delete'] });
        const token = await one.dataSource.getRepository(ApiTokenEntity).findOneByOrFail({ name: 'front desk A' });
        for (const path of [
          '/admin/settings/tokens',
          '/admin/settings/tokens/new',
          `/admin/settings/tokens/${token.id}/revoke`,
          '/admin/settings/operators',
          '/admin/settings/operators/new',
          `/admin/settings/operators/${admin.operator.id}`,
          `/admin/settings/operators/${admin.operator.id}/disable`,
        ]) {
          expect([path, (await staff.get(path)).status]).toEqual([path, 403]);
        }
        for (const [path, form] of [
          ['/admin/settings/tokens', { name: 'forged', permissions: 'delete', scope: 'all' }],
          [`/admin/settings/tokens/${token.id}/revoke`, {}],
          [
            '/admin/settings/operators',
            { email: email('forged'), name: 'x', permissions: 'read', scope: 'all', admin: 'yes' },
          ],
          [
            `/admin/settings/operators/${admin.operator.id}`,
            { name: 'x', permissions: 'read', scope: 'all', confirm: 'yes' },
          ],
          [`/admin/settings/operators/${admin.operator.id}/disable`, {}],
          [`/admin/settings/operators/${admin.operator.id}/reset-password`, {}],
        ] as Array<[string, Record<string, string>]>) {
          expect([path, (await staff.post(path, form)).status]).toEqual([path, 403]);
        }
        expect(
          (await one.dataSource.getRepository(ApiTokenEntity).findOneByOrFail({ id: token.id })).revokedAt,
        ).toBeNull();
        expect(await one.dataSource.getRepository(ApiTokenEntity).findOneBy({ name: 'forged' })).toBeNull();
        expect((await operatorRow(admin.operator.id)).status).toBe('active');
        const home = await staff.get('/admin/account');
        expect(home.status).toBe(200);
        expect(home.text).not.toContain('/admin/settings/tokens');
        expect((await staff.get('/admin/audit')).status).toBe(200);
      });
    });

    describe('who did it, and from where', () => {
      it("an administrator's changes carry the client address and the request id in the audit trail", async () => {
        const created = await admin.console.post('/admin/settings/tokens', {
          name: 'traced token',
          permissions: 'read',
          scope: 'all',
        });
        expect(created.status).toBe(303);
        const operator = await admin.console.post('/admin/settings/operators', {
          email: email('traced'),
          name: 'Traced',
          permissions: 'read',
          scope: 'all',
        });
        expect(operator.status).toBe(303);
        const rows = await one.dataSource.getRepository(AuditEventEntity).find();
        const token = rows.find(
          (row) => row.action === 'token.create' && row.requestId === created.headers['x-request-id'],
        );
        const made = rows.find(
          (row) => row.action === 'operator.create' && row.requestId === operator.headers['x-request-id'],
        );
        for (const row of [token, made]) {
          expect(row).toMatchObject({ actorType: 'operator', actorId: admin.operator.id, outcome: 'success' });
          expect(row?.clientAddress).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
        }
        // Sign-in rows too.
        const signIn = rows.find((row) => row.action === 'signin.success' && row.actorId === admin.operator.id);
        expect(signIn?.requestId).toMatch(/^[0-9a-f-]{36}$/);
      });

      it('a refused console request is recorded against its operator: the page, address and request id, once a minute at most', async () => {
        const { console: staff, operator } = await signInConsole(one, { permissions: ['read'] });
        const refused = await staff.post('/admin/settings/tokens', {
          name: 'forged',
          permissions: 'delete',
          scope: 'all',
        });
        expect(refused.status).toBe(403);
        const again = await staff.get(`/admin/settings/operators/${admin.operator.id}`);
        expect(again.status).toBe(403);
        const rows = await one.dataSource
          .getRepository(AuditEventEntity)
          .findBy({ actorId: operator.id, action: 'access.denied' });
        expect(rows).toEqual([
          expect.objectContaining({
            actorType: 'operator',
            actorName: operator.email,
            targetType: 'page',
            targetId: '/admin/settings/tokens',
            venueIds: null,
            outcome: 'failure',
            requestId: refused.headers['x-request-id'],
            clientAddress: expect.stringMatching(/127\.0\.0\.1|::1/),
          }),
        ]);
        // An administrator finds it in the console's audit log.
        const log = await admin.console.get('/admin/audit?action=access.denied');
        expect(log.status).toBe(200);
        expect(log.text).toContain(operator.email);
        expect(log.text).toContain('/admin/settings/tokens');
      });
    });

    describe("an administrator's own level and venues bind what it gives", () => {
      it('a read-only administrator of one venue gives nothing more, manages no one stronger, widens no rights', async () => {
        const limited = await signInConsole(one, {
          admin: true,
          permissions: ['read'],
          venueIds: ['venue-a'],
          email: email('limited'),
        });
        const tokens = () => one.dataSource.getRepository(ApiTokenEntity);
        for (const [name, form] of [
          ['every venue', { permissions: 'read', scope: 'all' }],
          ['delete', { permissions: 'delete', scope: 'some', other: 'venue-a' }],
          ['another venue', { permissions: 'read', scope: 'some', other: 'venue-b' }],
          ['radius', { permissions: 'radius', scope: 'all' }],
        ] as const) {
          const answer = await limited.console.post('/admin/settings/tokens', { name: `beyond ${name}`, ...form });
          expect([name, answer.status]).toEqual([name, 422]);
          expect(answer.text).toContain('You cannot give or manage more than your own rights');
          expect(await tokens().findOneBy({ name: `beyond ${name}` })).toBeNull();
        }
        // Within its rights: fine.
        const within = await limited.console.post('/admin/settings/tokens', {
          name: 'within',
          permissions: 'read',
          scope: 'some',
          other: 'venue-a',
        });
        expect(within.status).toBe(303);

        // An operator with more rights than its own: neither created nor widened, its own rights included.
        const wider = await limited.console.post('/admin/settings/operators', {
          email: email('wider'),
          name: 'Wider',
          permissions: 'delete',
          scope: 'all',
        });
        expect(wider.status).toBe(422);
        expect(wider.text).toContain('You cannot give or manage more than your own rights');
        const self = await limited.console.post(`/admin/settings/operators/${limited.operator.id}`, {
          name: 'Me',
          permissions: 'delete',
          scope: 'all',
          admin: 'yes',
          confirm: 'yes',
        });
        expect(self.status).toBe(422);
        expect(await operatorRow(limited.operator.id)).toMatchObject({ permissions: ['read'], venueIds: ['venue-a'] });

        // A stronger administrator's password or second factor cannot be reset: that would be a way in.
        for (const action of ['reset-password', 'reset-2fa', 'disable']) {
          const answer = await limited.console.post(`/admin/settings/operators/${admin.operator.id}/${action}`, {});
          expect([action, answer.status]).toEqual([action, 403]);
        }
        const untouched = await operatorRow(admin.operator.id);
        expect(untouched.status).toBe('active');
        expect(Boolean(untouched.mustChangePassword)).toBe(false);
        const strongToken = await createToken({ name: 'stronger', permissions: 'delete', scope: 'all' });
        expect((await limited.console.post(`/admin/settings/tokens/${strongToken.id}/revoke`, {})).status).toBe(403);
        expect((await tokens().findOneByOrFail({ id: strongToken.id })).revokedAt).toBeNull();
      });
    });
  });
}
