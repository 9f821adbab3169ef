import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { UserBatchEntity } from '../src/batches/entities/user-batch.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { PlanEntity } from '../src/plans/entities/plan.entity.js';
import { UserUsageEntity } from '../src/usage/entities/user-usage.entity.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { givenUser, startSession, uniqueDevice } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${++sequence}-${Date.now().toString(36)}`;

/**
 * Settings → Plans as operators use it: the list in human units, create and edit in Mbit/s, GB and
 * minutes (stored in bit/s, bytes and seconds, with the operator's audit rows), every problem of a
 * form at once, the delete of a plan in use refused with what uses it, and venue scope (an operator
 * of venue B sees nothing of venue A's plans, also by URL; a read-only operator changes nothing);
 * and plans elsewhere in the console: the user form and page, the usage bars of the user page and
 * Online now, the batch form and its printed cards.
 */
describe.each(databaseKinds())('console: Settings → Plans [%s]', (kind) => {
  let testApp: TestApp;
  let venueA: ConsoleBrowser;
  let venueB: ConsoleBrowser;
  let readOnlyA: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp(kind);
    const venues = testApp.app.get(VenuesService);
    await venues.set('venue-a', { displayName: 'Hotel Aurora', timeZone: 'Europe/Istanbul' });
    await venues.set('venue-b', { displayName: 'Beach Bar Bravo' });
    venueA = (await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: ['venue-a'] })).console;
    venueB = (await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: ['venue-b'] })).console;
    readOnlyA = (await signInConsole(testApp, { permissions: ['read'], venueIds: ['venue-a'] })).console;
  }, 60_000);

  afterAll(async () => {
    await testApp?.close();
  });

  const planNamed = (name: string) => testApp.dataSource.getRepository(PlanEntity).findOneByOrFail({ name });

  async function givenPlan(body: Record<string, unknown>): Promise<string> {
    const created = await testApp.http
      .post('/api/v1/plans')
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({ venueIds: ['venue-a'], ...body });
    if (created.status !== 201) throw new Error(`plan: ${created.status} ${JSON.stringify(created.body)}`);
    return (created.body as { data: { _id: string } }).data._id;
  }

  it('creates a plan typed in Mbit/s, GB and minutes, stored in the API units, listed in human units', async () => {
    const name = unique('Free 5 Mbit');
    const form = await venueA.get('/admin/settings/plans/new');
    expect(form.status).toBe(200);
    // The operator's only venue is ticked already.
    expect(form.text).toMatch(/name="venue" value="venue-a" checked/);
    const created = await venueA.post('/admin/settings/plans/new', {
      name,
      venue: 'venue-a',
      downloadMbit: '5',
      uploadMbit: '0,5',
      quota: '1.5',
      quotaUnit: 'GB',
      quotaPeriod: 'day',
      dailyMinutes: '120',
      totalHours: '',
      idleMinutes: '10',
      maxSessions: '2',
      maxDevices: '3',
      interimMinutes: '5',
    });
    expect(created.status).toBe(303);
    expect(created.headers.location).toBe('/admin/settings/plans?notice=notice.plans.created');
    const plan = await planNamed(name);
    expect(plan).toMatchObject({
      downloadRate: 5_000_000,
      uploadRate: 500_000,
      quotaBytes: 1_500_000_000,
      quotaPeriod: 'day',
      dailyTimeSeconds: 7200,
      totalTimeSeconds: null,
      idleTimeoutSeconds: 600,
      maxSessions: 2,
      maxDevices: 3,
      interimIntervalSeconds: 300,
    });
    const audit = await testApp.dataSource
      .getRepository(AuditEventEntity)
      .findOneByOrFail({ action: 'plan.create', targetId: plan.id });
    expect(audit).toMatchObject({ actorType: 'operator', venueIds: ['venue-a'] });

    const list = await venueA.follow(created);
    expect(list.status).toBe(200);
    expect(list.text).toContain('The plan was added.');
    const row = new RegExp(`data-plan="${plan.id}">[\\s\\S]*?</tr>`).exec(list.text)?.[0] ?? '';
    expect(row).toContain(name);
    expect(row).toContain('5 Mbit/s down, 0.5 Mbit/s up');
    expect(row).toContain('1.5 GB per day');
    expect(row).toContain('2 h online per day');
    expect(row).toContain('Logged out after 10 min idle');
    expect(row).toContain('2 devices at a time');
    expect(row).toContain('Hotel Aurora');
  });

  it('refuses every problem of the form in one round, beside its field, and keeps what was typed', async () => {
    const refused = await venueA.post('/admin/settings/plans/new', {
      name: '',
      downloadMbit: 'fast',
      uploadMbit: '',
      quota: '2',
      quotaUnit: 'GB',
      quotaPeriod: '',
      dailyMinutes: '2000',
      totalHours: '',
      idleMinutes: '',
      maxSessions: '0',
      maxDevices: '',
      interimMinutes: '',
    });
    expect(refused.status).toBe(422);
    for (const field of ['name', 'venueIds', 'downloadMbit', 'quotaPeriod', 'dailyMinutes', 'maxSessions']) {
      expect(refused.text).toContain(`href="#plan-${field}"`);
    }
    expect(refused.text).toContain('id="problem-dailyMinutes"');
    expect(refused.text).toMatch(/id="plan-downloadMbit" name="downloadMbit" value="fast"/);
    expect(refused.text).toMatch(/id="plan-downloadMbit"[^>]*aria-invalid="true"/);
  });

  it('edits a plan in the form units, and clears a limit left empty', async () => {
    const name = unique('Paid');
    const id = await givenPlan({ name, downloadRate: 50_000_000, quotaBytes: 500_000_000, quotaPeriod: 'total' });
    const form = await venueA.get(`/admin/settings/plans/${id}/edit`);
    expect(form.status).toBe(200);
    expect(form.text).toMatch(/name="downloadMbit" value="50"/);
    expect(form.text).toMatch(/name="quota" value="500"/);
    expect(form.text).toMatch(/<option value="MB" selected>/);
    const saved = await venueA.post(`/admin/settings/plans/${id}/edit`, {
      name: `${name} plus`,
      venue: 'venue-a',
      downloadMbit: '',
      uploadMbit: '10',
      quota: '500',
      quotaUnit: 'MB',
      quotaPeriod: 'total',
      dailyMinutes: '',
      totalHours: '1.5',
      idleMinutes: '',
      maxSessions: '',
      maxDevices: '',
      interimMinutes: '',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/admin/settings/plans?notice=notice.plans.saved');
    expect(await planNamed(`${name} plus`)).toMatchObject({
      id,
      downloadRate: null,
      uploadRate: 10_000_000,
      quotaBytes: 500_000_000,
      totalTimeSeconds: 5400,
    });
  });

  it('refuses to delete a plan in use, saying what uses it; deletes one nothing uses', async () => {
    const used = await givenPlan({ name: unique('Used'), maxDevices: 2 });
    await givenUser(testApp, { planId: used });
    const page = await venueA.get(`/admin/settings/plans/${used}/delete`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('This plan is in use and cannot be deleted');
    expect(page.text).toContain('users on it: 1');
    expect(page.text).not.toContain('action="/admin/settings/plans/');
    const posted = await venueA.post(`/admin/settings/plans/${used}/delete`, {});
    expect(posted.status).toBe(409);
    expect(posted.text).toContain('users on it: 1');
    expect(await testApp.dataSource.getRepository(PlanEntity).countBy({ id: used })).toBe(1);

    const free = await givenPlan({ name: unique('Free') });
    const confirm = await venueA.get(`/admin/settings/plans/${free}/delete`);
    expect(confirm.text).toContain(`action="/admin/settings/plans/${free}/delete"`);
    const deleted = await venueA.post(`/admin/settings/plans/${free}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.headers.location).toBe('/admin/settings/plans?notice=notice.plans.deleted');
    expect(await testApp.dataSource.getRepository(PlanEntity).countBy({ id: free })).toBe(0);
  });

  it("sets a venue's default plan from the venue's form, among the plans it offers, and clears it", async () => {
    const admin = (await signInConsole(testApp, { admin: true })).console;
    const offered = await givenPlan({ name: unique('Lobby default'), downloadRate: 2_000_000 });
    const elsewhere = await givenPlan({ name: unique('Beach only'), venueIds: ['venue-b'] });
    const form = await admin.get('/admin/settings/venues/venue-a/edit');
    expect(form.status).toBe(200);
    expect(form.text).toContain(`<option value="${offered}">`);
    expect(form.text).not.toContain(`<option value="${elsewhere}">`);
    const fields = {
      displayName: 'Hotel Aurora',
      timeZone: 'Europe/Istanbul',
      ssid: '',
      portalUrl: '',
      checkOutTime: '',
    };
    const defaultOf = async () =>
      (await testApp.app.get(VenuesService).list()).find((venue) => venue.id === 'venue-a')?.defaultPlanId;

    const saved = await admin.post('/admin/settings/venues/venue-a/edit', { ...fields, defaultPlanId: offered });
    expect(saved.status).toBe(303);
    expect(await defaultOf()).toBe(offered);
    expect((await admin.get('/admin/settings/venues/venue-a/edit')).text).toContain(
      `<option value="${offered}" selected>`,
    );

    const refused = await admin.post('/admin/settings/venues/venue-a/edit', { ...fields, defaultPlanId: elsewhere });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Default plan: choose a plan this venue offers.');
    expect(await defaultOf()).toBe(offered);

    const cleared = await admin.post('/admin/settings/venues/venue-a/edit', { ...fields, defaultPlanId: '' });
    expect(cleared.status).toBe(303);
    expect(await defaultOf()).toBeNull();
  });

  it('keeps to the venues: another venue’s operator sees none of its plans, also by URL', async () => {
    const name = unique('Aurora only');
    const id = await givenPlan({ name });
    const list = await venueB.get('/admin/settings/plans');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(name);
    expect((await venueB.get(`/admin/settings/plans/${id}/edit`)).status).toBe(404);
    expect((await venueB.get(`/admin/settings/plans/${id}/delete`)).status).toBe(404);
    const edit = await venueB.post(`/admin/settings/plans/${id}/edit`, { name: 'taken over', venue: 'venue-b' });
    expect(edit.status).toBe(404);
    expect((await venueB.post(`/admin/settings/plans/${id}/delete`, {})).status).toBe(404);
    expect(await planNamed(name)).toMatchObject({ id });
    // A venue not its own, sent anyway: refused beside the venues.
    const outside = await venueB.post('/admin/settings/plans/new', { name: unique('Sneaky'), venue: 'venue-a' });
    expect(outside.status).toBe(403);
    expect(outside.text).toContain('You may only offer plans in your own venues.');
  });

  it('shows a read-only operator the plans without a control to change them, and refuses its changes', async () => {
    const name = unique('Read only');
    const id = await givenPlan({ name });
    const list = await readOnlyA.get('/admin/settings/plans');
    expect(list.status).toBe(200);
    expect(list.text).toContain(name);
    expect(list.text).not.toContain('/admin/settings/plans/new');
    expect(list.text).not.toContain(`/admin/settings/plans/${id}/edit`);
    expect((await readOnlyA.get('/admin/settings/plans/new')).status).toBe(403);
    expect((await readOnlyA.post(`/admin/settings/plans/${id}/delete`, {})).status).toBe(403);
  });

  describe('plans on users, usage and batches', () => {
    it('puts a user on a plan of its venues from the create form, and off it from the edit form', async () => {
      const name = unique('Desk plan');
      const id = await givenPlan({ name });
      const form = await venueA.get('/admin/users/new?venueId=venue-a&loginMethod=guest');
      expect(form.status).toBe(200);
      expect(form.text).toContain(`<option value="${id}">${name}</option>`);
      const created = await venueA.post('/admin/users/new', {
        context: 'venue-a',
        loginMethod: 'guest',
        name: 'Planned Guest',
        venue: 'venue-a',
        planId: id,
      });
      expect(created.status).toBe(303);
      const user = await testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ name: 'Planned Guest' });
      expect(user.planId).toBe(id);

      const list = await venueA.get('/admin/users?venueId=venue-a');
      expect(list.text).toContain(`<span class="row-plan">Plan: <bdi>${name}</bdi></span>`);
      const page = await venueA.get(`/admin/users/${user.id}?venueId=venue-a`);
      expect(page.text).toMatch(new RegExp(`<dt>Plan</dt><dd><bdi>${name}</bdi></dd>`));
      const edit = await venueA.get(`/admin/users/${user.id}/edit?venueId=venue-a`);
      expect(edit.text).toContain(`<option value="${id}" selected>`);
      const etag = (/name="etag" value="([^"]+)"/.exec(edit.text)?.[1] ?? '').replace(/&quot;/g, '"');
      const saved = await venueA.post(`/admin/users/${user.id}/edit`, {
        context: 'venue-a',
        etag,
        name: 'Planned Guest',
        venue: 'venue-a',
        planId: '',
      });
      expect(saved.status).toBe(303);
      expect(
        (await testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id: user.id })).planId,
      ).toBeNull();
    });

    it("refuses a plan the user's venues do not offer, beside the plan", async () => {
      const elsewhere = await givenPlan({ name: unique('Bravo only'), venueIds: ['venue-b'] });
      const refused = await venueA.post('/admin/users/new', {
        context: 'venue-a',
        loginMethod: 'guest',
        name: 'Wrong Plan',
        venue: 'venue-a',
        planId: elsewhere,
      });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('href="#user-planId"');
      expect(refused.text).toContain('Choose a plan offered in every venue of the user, or none.');
      expect(await testApp.dataSource.getRepository(HotspotUserEntity).countBy({ name: 'Wrong Plan' })).toBe(0);
    });

    it('shows a bar per limited counter on the user page, and the tightest in Online now, in words too', async () => {
      const name = unique('Metered');
      const id = await givenPlan({ name, quotaBytes: 1_000_000_000, quotaPeriod: 'total', totalTimeSeconds: 7200 });
      const user = await givenUser(testApp, { name: 'Metered Guest', planId: id });
      await testApp.dataSource.getRepository(UserUsageEntity).insert({
        userId: user._id,
        period: 'total',
        inputOctets: '100000000',
        outputOctets: '800000000',
        sessionSeconds: '5400',
      });
      const page = await venueA.get(`/admin/users/${user._id}?venueId=venue-a`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('id="usage-heading"');
      expect(page.text).toMatch(/<meter min="0" max="1000000000" value="900000000" aria-labelledby="usage-data-label"/);
      expect(page.text).toContain('900 MB of 1 GB used, 100 MB left');
      expect(page.text).toContain('1 h 30 min of 2 h used, 30 min left');

      const started = await startSession(testApp, { userId: user._id, venueId: 'venue-a', ...uniqueDevice() });
      const online = await venueA.get('/admin/online?venueId=venue-a');
      expect(online.status).toBe(200);
      const row = new RegExp(`<tr data-session="${started.id}">[\\s\\S]*?</tr>`).exec(online.text)?.[0] ?? '';
      expect(row).toContain('data-counter="data"');
      expect(row).toContain('900 MB of 1 GB');
    });

    it('gives a batch the plan picked, named on its page and on every printed card', async () => {
      const name = unique('Voucher 5 Mbit');
      const id = await givenPlan({ name, downloadRate: 5_000_000, quotaBytes: 2_000_000_000, quotaPeriod: 'day' });
      const form = await venueA.get('/admin/batches?venueId=venue-a');
      expect(form.text).toContain(`<option value="${id}">${name}</option>`);
      const label = unique('Fair');
      const created = await venueA.post('/admin/batches', {
        venueId: 'venue-a',
        count: '2',
        validForHours: '24',
        planId: id,
        label,
      });
      expect(created.status).toBe(303);
      const batch = await testApp.dataSource.getRepository(UserBatchEntity).findOneByOrFail({ label });
      expect(batch.planId).toBe(id);
      const shown = await venueA.follow(created);
      expect(shown.text).toContain(`<bdi>${name}</bdi>`);
      await venueA.get(`/admin/batches/${batch.id}/print`);
      const cards = await venueA.follow(await venueA.post(`/admin/batches/${batch.id}/print`, {}));
      expect(cards.status).toBe(200);
      expect(cards.text.split(`<bdi>${name}</bdi>`).length - 1).toBe(2);
      expect(cards.text).toContain('5 Mbit/s down, ∞ Mbit/s up · 2 GB per day');
    });
  });
});
