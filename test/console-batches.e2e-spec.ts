import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { BatchPasswordEntity } from '../src/batches/entities/batch-password.entity.js';
import { UserBatchEntity } from '../src/batches/entities/user-batch.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { verify as verifyPassword } from '@node-rs/argon2';
import { VenuesService } from '../src/venues/venues.service.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const HOUR = 60 * 60 * 1000;
const decoded = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
/** Username and password of each card on the print page. */
const cardsOf = (html: string) =>
  [...html.matchAll(/<dd><code>([^<]+)<\/code><\/dd>\s*<dt>[^<]*<\/dt><dd><code>([^<]+)<\/code><\/dd>/g)].map(
    ([, username, password]) => ({ username, password: decoded(password) }),
  );

describe.each(databaseKinds())('console batches screen [%s]', (kind) => {
  const A = 'cb-venue-a';
  const B = 'cb-venue-b';
  let testApp: TestApp;
  let staff: ConsoleBrowser;
  let venueA: ConsoleBrowser;
  let reader: ConsoleBrowser;
  let batchB: string;

  const batchIdOf = (location: string) => /\/admin\/batches\/([^?]+)/.exec(location)?.[1] ?? '';
  const create = async (client: ConsoleBrowser, venueId: string, fields: Record<string, string> = {}) => {
    const answer = await client.post('/admin/batches', {
      venueId,
      count: '50',
      expiresAt: '2030-01-31T12:00',
      prefix: '',
      passwordLength: '',
      label: 'Fair',
      ...fields,
    });
    expect(answer.status).toBe(303);
    return batchIdOf(answer.headers.location);
  };
  const audit = (id: string) =>
    testApp.dataSource.getRepository(AuditEventEntity).find({ where: { targetId: id }, order: { occurredAt: 'ASC' } });

  beforeAll(async () => {
    testApp = await startTestApp(kind, { SECRETS_KEY: 'b'.repeat(64) });
    await testApp.app
      .get(VenuesService)
      .set(A, { displayName: 'Grand Lobby', portalUrl: 'https://portal.example/login' });
    ({ console: staff } = await signInConsole(testApp, { permissions: ['read', 'write', 'delete'] }));
    ({ console: venueA } = await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: [A] }));
    ({ console: reader } = await signInConsole(testApp, { permissions: ['read'], venueIds: [A] }));
    batchB = await create(staff, B, { count: '2', label: 'Secret-B-batch' });
  }, 60_000);

  afterAll(async () => {
    await testApp?.close();
  });

  it('offers the registered venues to an operator of every venue, and warns of a venue typed that is not registered', async () => {
    const list = await staff.get('/admin/batches');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`<option value="${A}">Grand Lobby (${A})</option>`);
    expect(list.text).toContain('name="otherVenueId"');
    expect(list.text).toContain('A venue id typed is not among the registered venues');
    const typed = await staff.get(`/admin/batches?venueId=${A}&otherVenueId=cb-venue-typo`);
    expect(typed.status).toBe(200);
    expect(typed.text).toContain('<option value="cb-venue-typo" selected>cb-venue-typo (not registered)</option>');
    expect(typed.text).toContain(
      'The venue cb-venue-typo is not registered: check its spelling before creating a batch',
    );
    expect(typed.text).toContain('<input type="hidden" name="venueId" value="cb-venue-typo">');
    const registered = await staff.get(`/admin/batches?venueId=${A}`);
    expect(registered.text).toContain(`<option value="${A}" selected>`);
    expect(registered.text).not.toContain('is not registered: check its spelling');
    expect((await staff.get('/admin/batches?otherVenueId=bad%20venue!')).status).toBe(400);
  });

  it('creates 50 accounts from the form, lists the batch, and shows its accounts', async () => {
    const list = await venueA.get('/admin/batches');
    expect(list.status).toBe(200);
    expect(list.text).toContain('New batch');
    const id = await create(venueA, A);
    const users = await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ batchId: id });
    expect(users).toHaveLength(50);
    expect(users[0].expiresAt?.toISOString()).toBe('2030-01-31T12:00:00.000Z');
    const page = await venueA.get(`/admin/batches/${id}?notice=notice.batches.created`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('The batch was created');
    expect(page.text).toContain('Print cards');
    for (const user of users) expect(page.text).toContain(user.username!);
    expect((await venueA.get(`/admin/batches?venueId=${A}`)).text).toContain('Fair');
    expect((await audit(id)).map((event) => [event.action, event.actorType])).toEqual([['batch.create', 'operator']]);
  });

  it('creates a "hours from the first login" batch: validFor on every account, shown on the page and the cards', async () => {
    const id = await create(venueA, A, { count: '2', expiresAt: '', validForHours: '24' });
    const users = await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ batchId: id });
    expect(users.map((user) => [user.validFor, user.expiresAt])).toEqual([
      [86_400, null],
      [86_400, null],
    ]);
    expect((await venueA.get(`/admin/batches/${id}`)).text).toContain('24 hours from the first login');
    const cardsPage = await venueA.follow(await venueA.post(`/admin/batches/${id}/print`, {}));
    expect(cardsPage.text).toContain('24 hours from the first login');
    const both = await venueA.post('/admin/batches', {
      venueId: A,
      count: '1',
      expiresAt: '2030-01-31T12:00',
      validForHours: '24',
    });
    expect(both.status).toBe(422);
    expect(both.text).toContain('not both');
  });

  it('prints the cards after a confirmation: venue name, passwords that log in, a QR code; audited', async () => {
    const id = await create(venueA, A, { count: '3', label: 'Print me' });
    const confirm = await venueA.get(`/admin/batches/${id}/print`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('24 hours from now');
    expect(await testApp.dataSource.getRepository(UserBatchEntity).findOneByOrFail({ id })).toMatchObject({
      firstRevealedAt: null,
    });
    const answer = await venueA.post(`/admin/batches/${id}/print`, {});
    // Post/Redirect/Get: the cards are on the page the POST sends the browser to.
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toMatch(new RegExp(`^/admin/batches/${id}/cards/[0-9a-f-]{36}$`));
    const printed = await venueA.get(answer.headers.location);
    expect(printed.status).toBe(200);
    expect(printed.text).toContain('/admin/static/print.css');
    expect(printed.text).toContain('Grand Lobby');
    expect(printed.text).toContain('<svg');
    expect(printed.text).toContain('https://portal.example/login');
    const cards = cardsOf(printed.text);
    expect(cards).toHaveLength(3);
    for (const card of cards) {
      const user = await testApp.dataSource
        .getRepository(HotspotUserEntity)
        .findOneByOrFail({ username: card.username });
      expect(await verifyPassword(user.passwordHash!, card.password)).toBe(true);
    }
    const events = await audit(id);
    expect(events.map((event) => event.action)).toEqual(['batch.create', 'batch.reveal']);
    expect(JSON.stringify(events)).not.toContain(cards[0].password);
  });

  it('exports CSV (neutralised against formulas) and refuses both 24 hours after the first export', async () => {
    const id = await create(venueA, A, { count: '4', label: '=HYPERLINK("x")' });
    expect((await venueA.get(`/admin/batches/${id}/export.csv`)).status).toBe(200);
    const exported = await venueA.post(`/admin/batches/${id}/export.csv`, {});
    expect(exported.status).toBe(303);
    const csv = await venueA.follow(exported);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('username,password,venue,expiresAt,batch');
    expect(lines).toHaveLength(5);
    expect(lines[1].endsWith(`,"'=HYPERLINK(""x"")"`)).toBe(true);
    // 24 hours after the first export (moved back in the row: moving the clock would end the console sessions).
    const batches = testApp.dataSource.getRepository(UserBatchEntity);
    const { firstRevealedAt } = await batches.findOneByOrFail({ id });
    await batches.update({ id }, { firstRevealedAt: new Date(firstRevealedAt!.getTime() - 24 * HOUR) });
    const gone = await venueA.post(`/admin/batches/${id}/export.csv`, {});
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('Only a password reset shows a new one.');
    expect((await venueA.get(`/admin/batches/${id}/print`)).status).toBe(410);
    expect((await venueA.post(`/admin/batches/${id}/print`, {})).status).toBe(410);
    expect(await testApp.dataSource.getRepository(BatchPasswordEntity).countBy({ batchId: id })).toBe(0);
    const page = await venueA.get(`/admin/batches/${id}`);
    expect(page.text).toContain('Passwords gone');
    expect(page.text).not.toContain('Print cards');
  });

  it('keeps venue B out of a venue-A operator: lists, pages, print, export and the form field', async () => {
    expect((await venueA.get('/admin/batches')).text).not.toContain('Secret-B-batch');
    expect((await venueA.get(`/admin/batches?venueId=${B}`)).status).toBe(403);
    for (const path of [
      `/admin/batches/${batchB}`,
      `/admin/batches/${batchB}/print`,
      `/admin/batches/${batchB}/export.csv`,
    ]) {
      const page = await venueA.get(path);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('Secret-B-batch');
    }
    expect((await venueA.post(`/admin/batches/${batchB}/print`, {})).status).toBe(404);
    expect((await venueA.post(`/admin/batches/${batchB}/export.csv`, {})).status).toBe(404);
    const forged = await venueA.post('/admin/batches', { venueId: B, count: '1', expiresAt: '2030-01-31T12:00' });
    expect(forged.status).toBe(403);
    expect(await testApp.dataSource.getRepository(UserBatchEntity).countBy({ venueId: B })).toBe(1);
  });

  it('shows a read-only operator no change control, and refuses its forged POSTs', async () => {
    const id = await create(venueA, A, { count: '1' });
    const list = await reader.get('/admin/batches');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('New batch');
    expect(list.text).not.toContain('method="post" action="/admin/batches"');
    const page = await reader.get(`/admin/batches/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Print cards');
    expect(page.text).not.toContain('Export CSV');
    expect((await reader.get(`/admin/batches/${id}/print`)).status).toBe(403);
    expect((await reader.post(`/admin/batches/${id}/print`, {})).status).toBe(403);
    expect((await reader.post(`/admin/batches/${id}/export.csv`, {})).status).toBe(403);
    expect(
      (await reader.post('/admin/batches', { venueId: A, count: '1', expiresAt: '2030-01-31T12:00' })).status,
    ).toBe(403);
  });

  it('shows the form again with its problems, and never answers 500 to odd input', async () => {
    const again = await venueA.post('/admin/batches', { venueId: A, count: '5000', expiresAt: 'soon', prefix: 'a b' });
    expect(again.status).toBe(422);
    // Every problem in one round, each labelled as the form labels it and linked to its field.
    expect(again.text).toContain('<a href="#batch-count">Accounts</a>: Give a whole number from 1 to 1,000.');
    expect(again.text).toContain(
      '<a href="#batch-expiresAt">Expires at</a>: Give the date and time as the field asks.',
    );
    expect(again.text).toContain('<a href="#batch-prefix">Username prefix</a>: Use up to 16 letters');
    expect(again.text).toMatch(/id="batch-count"[^>]*aria-describedby="help-count problem-count" aria-invalid="true"/);
    const past = await venueA.post('/admin/batches', { venueId: A, count: '1', expiresAt: '2020-01-01T00:00' });
    expect(past.status).toBe(422);
    // The service's refusal in the form's words, never the API's field name.
    expect(past.text).toContain(
      '<a href="#batch-expiresAt">Expires at</a>: Give a date and time in the future, or the hours from the first login instead.',
    );
    expect(past.text).not.toContain('expiresAt must');
    for (const path of [
      '/admin/batches/x',
      `/admin/batches/${'z'.repeat(500)}`,
      '/admin/batches?venueId=%00',
      '/admin/batches?page=-1',
      '/admin/batches?page=abc',
    ]) {
      const answer = await venueA.get(path);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    expect((await venueA.post('/admin/batches', { venueId: 'bad venue!', count: '1' })).status).toBe(400);
    expect((await venueA.post('/admin/batches', {})).status).toBe(400);
  });
});
