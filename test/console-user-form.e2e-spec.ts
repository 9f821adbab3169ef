import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { nextWallTime, wallTimeOnDay } from '../src/web/zoned-time.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const etagOf = (html: string) => (/name="etag" value="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&quot;/g, '"');

/**
 * The users form: times typed and shown in the venue's zone, named, stays ending at its check-out
 * time, and each field as long as the API takes it, never cut to fit.
 */
describe.each(databaseKinds())('console user form: venue time zones, stays and limits [%s]', (kind) => {
  const HOTEL = 'stay-hotel';
  const PLAIN = 'stay-plain';
  const ZONE = 'Europe/Istanbul';
  let testApp: TestApp;
  let desk: ConsoleBrowser;

  const stored = (username: string) =>
    testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ username });
  const newUserForm = (venueId: string, extra: Record<string, string>) => ({
    context: venueId,
    loginMethod: 'username_password',
    name: 'Stay Guest',
    password: 'sunrise-42-x',
    venueIds: venueId,
    expiresAt: '',
    metadata: '',
    ...extra,
  });

  beforeAll(async () => {
    testApp = await startTestApp(kind);
    await testApp.app.get(VenuesService).set(HOTEL, { timeZone: ZONE, checkOutTime: '11:00' });
    await testApp.app.get(VenuesService).set(PLAIN, { displayName: 'No zone' });
    ({ console: desk } = await signInConsole(testApp, { permissions: ['read', 'write'] }));
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("names the venue's zone next to the expiry and on the page, and offers the stays with their times", async () => {
    const page = await desk.get(`/admin/users/new?venueId=${HOTEL}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<span class="zone-name">(${ZONE})</span>`);
    expect(page.text).toContain(`Times in ${ZONE}`);
    const checkOut = /<option value="checkOut">Until check-out: (\d{4}-\d{2}-\d{2} \d{2}:\d{2})<\/option>/.exec(
      page.text,
    );
    expect(checkOut?.[1]).toMatch(/ 11:00$/);
    expect(page.text).toMatch(/<option value="extraNight">One more night: until \d{4}-\d{2}-\d{2} 11:00<\/option>/);
    // Without a venue zone the operator's own (UTC until chosen), named too.
    const plain = await desk.get(`/admin/users/new?venueId=${PLAIN}`);
    expect(plain.text).toContain('<span class="zone-name">(UTC)</span>');
    expect(plain.text).toMatch(/Until check-out: \d{4}-\d{2}-\d{2} 12:00/);
  });

  it("reads a typed expiry in the venue's zone, not the operator's", async () => {
    await desk.post('/admin/users/new', newUserForm(HOTEL, { username: 'stay-typed', expiresAt: '2031-06-01T12:00' }));
    expect((await stored('stay-typed')).expiresAt).toEqual(new Date('2031-06-01T09:00:00.000Z'));
  });

  it('ends a stay at the next check-out, and one more night after the expiry', async () => {
    const before = new Date();
    await desk.post('/admin/users/new', newUserForm(HOTEL, { username: 'stay-checkout', stay: 'checkOut' }));
    const user = await stored('stay-checkout');
    const expected = [nextWallTime(before, '11:00', ZONE), nextWallTime(new Date(), '11:00', ZONE)];
    expect(expected.map((date) => date?.getTime())).toContain(user.expiresAt?.getTime());

    const edit = await desk.get(`/admin/users/${user.id}/edit?venueId=${HOTEL}`);
    expect(edit.status).toBe(200);
    const saved = await desk.post(`/admin/users/${user.id}/edit`, {
      context: HOTEL,
      etag: etagOf(edit.text),
      loginMethod: 'username_password',
      name: 'Stay Guest',
      username: 'stay-checkout',
      venueIds: HOTEL,
      expiresAt: '',
      metadata: '',
      stay: 'extraNight',
    });
    expect(saved.status).toBe(303);
    expect((await stored('stay-checkout')).expiresAt).toEqual(wallTimeOnDay(user.expiresAt!, 1, '11:00', ZONE));
  });

  it("stops each field at the API's limit, and refuses a longer one instead of cutting it", async () => {
    const page = await desk.get(`/admin/users/new?venueId=${HOTEL}`);
    expect(page.text).toMatch(/id="user-name" name="name" value="" type="text" maxlength="255"/);
    expect(page.text).toMatch(/id="user-room" name="room" value="" type="text" maxlength="32"/);
    expect(page.text).toMatch(/<textarea id="user-metadata" name="metadata" rows="3" maxlength="16384"/);
    const long = await desk.post(
      '/admin/users/new',
      newUserForm(HOTEL, { username: 'stay-long', name: 'x'.repeat(5000) }),
    );
    expect(long.status).toBe(422);
    expect(long.text).toContain(
      '<li><a href="#user-name">Name</a>: Give 1 to 255 characters, without control or text-direction characters.</li>',
    );
    expect(await testApp.dataSource.getRepository(HotspotUserEntity).findOneBy({ username: 'stay-long' })).toBeNull();
    // Metadata past the old 1,024-character cut arrives whole.
    const notes = 'n'.repeat(5000);
    await desk.post(
      '/admin/users/new',
      newUserForm(HOTEL, { username: 'stay-notes', metadata: JSON.stringify({ notes }) }),
    );
    expect((await stored('stay-notes')).metadata).toEqual({ notes });
  });

  it('offers the registered venues as a picker, and asks to confirm a venue id typed that is not registered', async () => {
    const page = await desk.get(`/admin/users/new?venueId=${HOTEL}`);
    expect(page.text).toMatch(
      new RegExp(`<input type="checkbox" id="user-venue-\\d+" name="venue" value="${HOTEL}" checked>`),
    );
    expect(page.text).toMatch(new RegExp(`name="venue" value="${PLAIN}">`));
    expect(page.text).toContain('No zone</bdi> (<bdi>stay-plain</bdi>)');
    expect(page.text).toContain('an id typed here is not a registered venue');
    expect(page.text).toMatch(/<input id="user-venueIds" name="venueIds" value="" /);
    // Ticked and typed together; a typo of a registered venue is refused until confirmed.
    const typo = await desk.post(
      '/admin/users/new',
      newUserForm(HOTEL, { username: 'picker-typo', venueIds: 'stay-hotle', venue: HOTEL }),
    );
    expect(typo.status).toBe(422);
    expect(typo.text).toContain('Not registered: stay-hotle.');
    expect(typo.text).toContain('name="unregistered" value="yes"');
    expect(typo.text).toMatch(/<input id="user-venueIds" name="venueIds" value="stay-hotle" /);
    expect(await testApp.dataSource.getRepository(HotspotUserEntity).findOneBy({ username: 'picker-typo' })).toBeNull();
    const confirmed = await desk.post(
      '/admin/users/new',
      newUserForm(HOTEL, { username: 'picker-typo', venueIds: 'stay-hotle', venue: HOTEL, unregistered: 'yes' }),
    );
    expect(confirmed.status).toBe(303);
    const typed = await stored('picker-typo');
    const user = await desk.get(`/admin/users/${typed.id}?venueId=${HOTEL}`);
    expect(user.text).toContain('stay-hotle');
    // Registered venues and the one the form was opened for need no confirming.
    const ticked = await desk.post(
      '/admin/users/new',
      newUserForm('stay-lobby', { username: 'picker-ok', venueIds: PLAIN, venue: 'stay-lobby' }),
    );
    expect(ticked.status).toBe(303);
    // The edit form shows the user's venues ticked; sent back in the picker's order, they are no change.
    const picked = await stored('picker-ok');
    const edit = await desk.get(`/admin/users/${picked.id}/edit?venueId=stay-lobby`);
    expect(edit.text).toMatch(
      /name="venue" value="stay-lobby" checked> <span><bdi>stay-lobby<\/bdi><\/span> <span class="badge warn">not registered<\/span>/,
    );
    expect(edit.text).toMatch(new RegExp(`name="venue" value="${PLAIN}" checked>`));
    const saved = await desk.post(`/admin/users/${picked.id}/edit`, {
      context: 'stay-lobby',
      etag: etagOf(edit.text),
      loginMethod: 'username_password',
      name: 'Stay Guest',
      username: 'picker-ok',
      venue: PLAIN,
      venueIds: 'stay-lobby',
      expiresAt: '',
      metadata: '',
    });
    expect(saved.status).toBe(303);
    const audit = await testApp.dataSource
      .getRepository(AuditEventEntity)
      .findBy({ targetId: picked.id, action: 'user.update' });
    expect(audit.map((event) => event.changedFields)).toEqual([[]]);
    const shown = await testApp.http
      .get(`/api/v1/hotspot-users/${picked.id}`)
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .expect(200);
    expect(shown.body.data.venueIds).toEqual(['stay-lobby', PLAIN]);
  });

  it('shows the times of a venue-scoped page in the venue zone', async () => {
    const guest = await givenUser(testApp, { venueIds: [HOTEL], expiresAt: '2031-06-01T09:00:00.000Z' });
    const page = await desk.get(`/admin/users/${guest._id}?venueId=${HOTEL}`);
    expect(page.text).toContain(`Times in ${ZONE}`);
    expect(page.text).toMatch(
      /<time datetime="2031-06-01T09:00:00.000Z" title="2031-06-01 09:00:00 UTC">[^<]*12:00:00<\/time>/,
    );
  });
});
