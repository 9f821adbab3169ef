import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { verify as verifyPassword } from '@node-rs/argon2';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { api } from './support/api-client.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { givenGuest, givenUser, startSession, uniqueDevice } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { ConsolePages } from '../src/console/console-page.js';

const etagOf = (html: string) => /name="etag" value="([^"]+)"/.exec(html)?.[1] ?? '';
const venueOfV = (browser: ConsoleBrowser, venueId: string) => browser.get(`/admin/users?venueId=${venueId}`);
const decoded = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe.each(databaseKinds())('console users screen [%s]', (kind) => {
  const A = 'cu-venue-a';
  const B = 'cu-venue-b';
  let testApp: TestApp;
  let staff: ConsoleBrowser;
  let venueA: ConsoleBrowser;
  let reader: ConsoleBrowser;
  let writer: ConsoleBrowser;
  let userB: Awaited<ReturnType<typeof givenUser>>;

  const row = (id: string) => testApp.dataSource.getRepository(HotspotUserEntity).findOneBy({ id });
  const audit = (id: string) =>
    testApp.dataSource.getRepository(AuditEventEntity).find({ where: { targetId: id }, order: { occurredAt: 'ASC' } });
  const jobs = (userId: string) => testApp.dataSource.getRepository(UnauthJobEntity).findBy({ userId });

  beforeAll(async () => {
    testApp = await startTestApp(kind, { SECRETS_KEY: 'c'.repeat(64) });
    ({ console: staff } = await signInConsole(testApp, { permissions: ['read', 'write', 'delete'] }));
    ({ console: venueA } = await signInConsole(testApp, { permissions: ['read', 'write', 'delete'], venueIds: [A] }));
    ({ console: reader } = await signInConsole(testApp, { permissions: ['read'] }));
    ({ console: writer } = await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: [A] }));
    userB = await givenUser(testApp, { name: 'Bora Venue-B', phone: '+90 533 999 00 11', venueIds: [B] });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('asks an unrestricted operator to pick a venue, and lists a restricted one its own', async () => {
    const page = await staff.get('/admin/users');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Choose a venue to see its users.');
    expect(page.text).toContain('list="users-venues"');
    const own = await venueA.get('/admin/users');
    expect(own.status).toBe(200);
    expect(own.text).toContain(`<option value="${A}" selected>`);
    expect(own.text).not.toContain(B);
  });

  it('creates a username_password user, its generated password on the result page the POST redirects to', async () => {
    const form = await staff.get(`/admin/users/new?venueId=${A}`);
    expect(form.status).toBe(200);
    const created = await staff.post('/admin/users/new', {
      context: A,
      loginMethod: 'username_password',
      name: 'Ayşe Yılmaz',
      username: 'ayse1204',
      password: '',
      email: 'ayse@example.com',
      phone: '+90 532 111 22 33',
      macAddress: '',
      venueIds: A,
      expiresAt: '',
      metadata: '{"room": "1204"}',
    });
    // Post/Redirect/Get: the password is on the result page the POST sends the browser to.
    expect(created.status).toBe(303);
    const [stored] = await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ username: 'ayse1204' });
    expect(created.headers.location).toMatch(
      new RegExp(`^/admin/users/${stored.id}/created/[0-9a-f-]{36}\\?venueId=${A}$`),
    );
    const result = await staff.get(created.headers.location);
    expect(result.status).toBe(200);
    const password = /id="generated-password" class="secret">([^<]+)</.exec(result.text)?.[1];
    expect(password).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(result.text).toContain('data-copy="generated-password"');
    expect(created.headers.location).not.toContain(password);
    expect(stored.loginMethod).toBe('username_password');
    expect(stored.metadata).toEqual({ room: '1204' });
    expect(await verifyPassword(stored.passwordHash!, password!)).toBe(true);
    const events = await audit(stored.id);
    expect(events.map((e) => [e.action, e.actorType])).toEqual([['user.create', 'operator']]);
    // Never again: not in any page after it.
    for (const path of ['/admin/users', `/admin/users?venueId=${A}`, `/admin/users/${stored.id}/edit?venueId=${A}`]) {
      const next = await staff.get(path);
      expect(next.text).not.toContain(password);
    }
  });

  it('creates a guest, with only what a guest needs', async () => {
    const form = await staff.get(`/admin/users/new?loginMethod=guest&venueId=${A}`);
    expect(form.text).not.toContain('name="password"');
    const created = await staff.post('/admin/users/new', {
      context: A,
      loginMethod: 'guest',
      name: 'Guest of room 7',
      venueIds: A,
      phone: '0212 444 55 66',
      room: ' 7 ',
    });
    expect(created.status).toBe(303);
    const result = await staff.get(created.headers.location);
    expect(result.status).toBe(200);
    expect(result.text).toContain('Guest of room 7 was created.');
    expect(result.text).not.toContain('generated-password');
    const [stored] = await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ name: 'Guest of room 7' });
    expect([stored.loginMethod, stored.passwordHash, stored.username, stored.room]).toEqual(['guest', null, null, '7']);
    // The room is a column of the list and a line of the user page.
    const list = await staff.get(`/admin/users?venueId=${A}&q=7`);
    expect(list.text).toMatch(
      /<td><bdi>Guest of room 7<\/bdi><span class="row-match">Found by the name: <bdi>Guest of room 7<\/bdi><\/span><\/td>\n<td><bdi>7<\/bdi><\/td>/,
    );
    const page = await staff.get(`/admin/users/${stored.id}?venueId=${A}`);
    expect(page.text).toMatch(/<dt>Room<\/dt><dd><bdi>7<\/bdi><\/dd>/);
  });

  it('shows every problem of the form in one round, labelled as the form labels its fields, beside each and linked from the summary', async () => {
    const refused = await staff.post('/admin/users/new', {
      context: A,
      loginMethod: 'username_password',
      name: '',
      username: 'bad name!',
      email: 'not-an-email',
      macAddress: 'zz',
      venueIds: A,
      expiresAt: 'soon',
      metadata: '[1]',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('The user was not saved. Please correct:');
    const summary = /<div class="problem" role="alert" id="form-problems"[\s\S]*?<\/div>/.exec(refused.text)?.[0] ?? '';
    // The console's own checks (expiry, metadata) and the API's validation (the rest) in the same round.
    for (const [field, label, words] of [
      ['name', 'Name', 'Give 1 to 255 characters'],
      ['username', 'Username', 'Use 1 to 64 letters'],
      ['email', 'Email', 'Give an email address such as'],
      ['macAddress', 'MAC address', 'Give a MAC address such as'],
      ['expiresAt', 'Expires at', 'Give the date and time as the field asks.'],
      ['metadata', 'Metadata (JSON)', 'Metadata must be a JSON object'],
    ]) {
      expect(summary).toContain(`<a href="#user-${field}">${label}</a>: ${words}`);
      expect(refused.text).toMatch(
        new RegExp(`<p class="problem" id="problem-${field}">${words.replace(/[()]/g, '\\$&')}`),
      );
      expect(refused.text).toMatch(
        new RegExp(`id="user-${field}"[^>]*aria-describedby="[^"]*problem-${field}"[^>]*aria-invalid="true"`),
      );
    }
    // Never the API's field names.
    expect(summary).not.toMatch(/\b(macAddress|username|email) must\b/);
    expect(await testApp.dataSource.getRepository(HotspotUserEntity).countBy({ name: '' })).toBe(0);
  });

  it("names a taken username beside its field, in the form's words", async () => {
    await givenUser(testApp, { username: 'taken-at-desk', venueIds: [A] });
    const taken = await staff.post('/admin/users/new', {
      context: A,
      loginMethod: 'username_password',
      name: 'Second',
      username: 'taken-at-desk',
      venueIds: A,
    });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain(
      '<a href="#user-username">Username</a>: Another user of this venue already has this username.',
    );
    expect(taken.text).toContain(
      '<p class="problem" id="problem-username">Another user of this venue already has this username.</p>',
    );
  });

  it('finds a user by a prefix of the phone number', async () => {
    const found = await staff.get(`/admin/users?venueId=${A}&q=${encodeURIComponent('+90 532-11')}`);
    expect(found.status).toBe(200);
    expect(found.text).toContain('Ayşe Yılmaz');
    expect(found.text).not.toContain('Guest of room 7');
    expect(found.text).toContain('Users found: 1');
    const digits = await staff.get(`/admin/users?venueId=${A}&q=0212444`);
    expect(digits.text).toContain('Guest of room 7');
    const none = await staff.get(`/admin/users?venueId=${A}&q=zzz`);
    expect(none.text).toContain('No user of this venue matches the search.');
  });

  it.each([
    ['a surname alone, accents ignored', 'yilmaz', 'Found by the name: <bdi>Ayşe Yılmaz</bdi>'],
    ['a national phone', '0532 111 22 33', 'Found by the phone: <bdi>+90 532 111 22 33</bdi>'],
    ['the last digits of a phone', '2233', 'Found by the phone: <bdi>+90 532 111 22 33</bdi>'],
  ])('finds a user by %s, and says why', async (_what, q, why) => {
    const found = await staff.get(`/admin/users?venueId=${A}&q=${encodeURIComponent(q)}`);
    expect(found.status).toBe(200);
    expect(found.text).toContain('Users found: 1');
    expect(found.text).toContain(`<span class="row-match">${why}</span>`);
  });

  it('finds a guest by a room and by the end of a MAC, and says which', async () => {
    const guest = await givenGuest(testApp, {
      name: 'Deniz Room Guest',
      room: '1204',
      macAddress: '02:00:5e:10:ab:cd',
      venueIds: [A],
    });
    const byRoom = await staff.get(`/admin/users?venueId=${A}&q=1204`);
    expect(byRoom.text).toContain('Users found: 1');
    expect(byRoom.text).toContain('Found by the room: <bdi>1204</bdi>');
    const byMac = await staff.get(`/admin/users?venueId=${A}&q=${encodeURIComponent('ab:cd')}`);
    expect(byMac.text).toContain('Deniz Room Guest');
    expect(byMac.text).toContain('Found by the MAC address: <bdi>02:00:5E:10:AB:CD</bdi>');
    // Without a search, no row says why it is listed.
    const all = await staff.get(`/admin/users?venueId=${A}`);
    expect(all.text).toContain('Deniz Room Guest');
    expect(all.text).not.toContain('row-match');
    await api(testApp).users.remove(guest._id).expect(200);
  });

  it('lists the guests without the vouchers by default, each with its room, expiry in the venue zone and whether online', async () => {
    const V = 'cu-venue-v';
    await testApp.app.get(VenuesService).set(V, { timeZone: 'Europe/Istanbul' });
    testApp.app.get(ConsolePages).forgetVenueNames();
    const guest = await givenUser(testApp, {
      name: 'Deniz Room Guest',
      room: '1204',
      venueIds: [V],
      expiresAt: '2030-06-01T09:00:00.000Z',
    });
    await givenGuest(testApp, { name: 'Ece Offline', venueIds: [V] });
    await startSession(testApp, { userId: guest._id, venueId: V, macAddress: uniqueDevice().macAddress });
    const token = await testApp.createToken({ permissions: ['write'], venueIds: [V] });
    const batch = await testApp.http
      .post('/api/v1/hotspot-user-batches')
      .set('Authorization', `Bearer ${token}`)
      .send({ venueId: V, count: 3, prefix: 'vch-', label: 'Lobby cards', expiresAt: '2030-06-02T09:00:00.000Z' });
    expect(batch.status).toBe(201);
    const vouchers = (batch.body as { data: { accounts: Array<{ username: string }> } }).data.accounts;

    const page = await venueOfV(staff, V);
    expect(page.status).toBe(200);
    for (const account of vouchers) expect(page.text).not.toContain(account.username);
    expect(page.text).toContain('Users found: 2 (vouchers not counted)');
    expect(page.text).toContain('Vouchers are not listed.');
    const rowOf = (html: string, name: string) =>
      html.split('<tr>').find((tr) => tr.includes(`<bdi>${name}</bdi>`)) ?? '';
    const row = rowOf(page.text, 'Deniz Room Guest');
    expect(row).toContain('<bdi>1204</bdi>');
    // 09:00 UTC is 12:00 in Istanbul, the venue's zone.
    expect(row).toMatch(/<time datetime="2030-06-01T09:00:00.000Z"[^>]*>[^<]*12:00/);
    expect(row).toContain('<span class="badge good">Online</span>');
    const offlineRow = rowOf(page.text, 'Ece Offline');
    expect(offlineRow).toContain('<td>No</td>');
    expect(offlineRow).toContain('<td>Never</td>');

    const all = await staff.get(`/admin/users?venueId=${V}&vouchers=shown`);
    expect(all.text).toContain('Users found: 5');
    for (const account of vouchers) expect(all.text).toContain(account.username);
    expect(all.text).toContain('<span class="badge">Voucher</span>');
    expect(all.text).toContain('Hide the vouchers');
    // A search looks through the vouchers too.
    const searched = await staff.get(`/admin/users?venueId=${V}&q=${vouchers[0].username}`);
    expect(searched.text).toContain(vouchers[0].username);
  });

  it('edits with the ETag: a change meanwhile gives the conflict message and overwrites nothing', async () => {
    const user = await givenGuest(testApp, { name: 'Edit Me', venueIds: [A] });
    const form = await staff.get(`/admin/users/${user._id}/edit?venueId=${A}`);
    expect(form.status).toBe(200);
    const etag = decoded(etagOf(form.text));
    expect(etag).toBe('"v1"');
    await api(testApp).users.update(user._id, { name: 'Changed Elsewhere' }).expect(200);
    const stale = await staff.post(`/admin/users/${user._id}/edit`, {
      context: A,
      etag,
      name: 'From The Form',
      venueIds: A,
    });
    expect(stale.status).toBe(412);
    expect(stale.text).toContain('Someone else changed this user after you opened the form');
    expect(stale.text).toContain('value="Changed Elsewhere"');
    expect((await row(user._id))!.name).toBe('Changed Elsewhere');

    const saved = await staff.post(`/admin/users/${user._id}/edit`, {
      context: A,
      etag: decoded(etagOf(stale.text)),
      name: 'From The Form',
      venueIds: A,
      email: 'form@example.com',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`/admin/users/${user._id}?venueId=${A}&notice=notice.users.updated`);
    const stored = await row(user._id);
    expect([stored!.name, stored!.email]).toEqual(['From The Form', 'form@example.com']);
    const events = await audit(user._id);
    expect(events.at(-1)).toMatchObject({ action: 'user.update', actorType: 'operator' });
  });

  it("changes and clears a guest's MAC address on the edit form, which lists the devices seen", async () => {
    const user = await givenGuest(testApp, { name: 'Mac Guest', venueIds: [A], macAddress: 'AA:BB:CC:00:00:01' });
    const device = uniqueDevice();
    await startSession(testApp, { userId: user._id, venueId: A, macAddress: device.macAddress });
    const form = await staff.get(`/admin/users/${user._id}/edit?venueId=${A}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="macAddress" value="AA:BB:CC:00:00:01"');
    expect(form.text).toContain('<h2 id="edit-devices-heading">Devices</h2>');
    expect(form.text).toContain(`<td>${device.macAddress}</td>`);
    const send = async (macAddress: string, html: string) =>
      staff.post(`/admin/users/${user._id}/edit`, {
        context: A,
        etag: decoded(etagOf(html)),
        name: 'Mac Guest',
        venueIds: A,
        macAddress,
      });
    const refused = await send('zz-not-a-mac', form.text);
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/<p class="problem" id="problem-macAddress">[^<]+<\/p>/);
    expect(refused.text).toContain('id="user-macAddress" name="macAddress" value="zz-not-a-mac"');
    expect((await row(user._id))!.macAddress).toBe('AA:BB:CC:00:00:01');
    const changed = await send('aa-bb-cc-00-00-99', form.text);
    expect(changed.status).toBe(303);
    expect((await row(user._id))!.macAddress).toBe('AA:BB:CC:00:00:99');
    expect((await audit(user._id)).at(-1)).toMatchObject({ action: 'user.update', changedFields: ['macAddress'] });
    const again = await staff.get(`/admin/users/${user._id}/edit?venueId=${A}`);
    expect((await send('', again.text)).status).toBe(303);
    expect((await row(user._id))!.macAddress).toBeNull();
  });

  it('says an expired user cannot be edited', async () => {
    const user = await givenGuest(testApp, { name: 'Gone', venueIds: [A] });
    await api(testApp).users.expire(user._id).expect(200);
    const page = await staff.get(`/admin/users/${user._id}/edit?venueId=${A}`);
    expect(page.status).toBe(409);
    expect(page.text).toContain('Expired users cannot be edited.');
    const post = await staff.post(`/admin/users/${user._id}/edit`, {
      context: A,
      etag: '"v2"',
      name: 'x',
      venueIds: A,
    });
    expect(post.status).toBe(409);
  });

  it('blocks and unblocks through confirmations, disconnecting the sessions', async () => {
    const user = await givenGuest(testApp, { name: 'Online Guest', venueIds: [A] });
    await startSession(testApp, { userId: user._id, venueId: A, macAddress: uniqueDevice().macAddress });
    const confirm = await staff.get(`/admin/users/${user._id}/block?venueId=${A}`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Active sessions that will be disconnected: 1');
    expect((await row(user._id))!.status).toBe('active');
    const done = await staff.post(`/admin/users/${user._id}/block`, {
      context: A,
      etag: decoded(etagOf(confirm.text)),
    });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/admin/users/${user._id}?venueId=${A}&notice=notice.users.blocked`);
    expect((await row(user._id))!.status).toBe('blocked');
    expect((await jobs(user._id)).map((job) => job.reason)).toEqual(['blocked']);

    const unconfirm = await staff.get(`/admin/users/${user._id}/unblock?venueId=${A}`);
    expect(unconfirm.status).toBe(200);
    const back = await staff.post(`/admin/users/${user._id}/unblock`, {
      context: A,
      etag: decoded(etagOf(unconfirm.text)),
    });
    expect(back.status).toBe(303);
    expect((await row(user._id))!.status).toBe('active');
    expect((await audit(user._id)).map((e) => e.action)).toEqual(['user.create', 'user.block', 'user.unblock']);
    // Confirming with an ETag that is no longer current changes nothing.
    const late = await staff.post(`/admin/users/${user._id}/block`, {
      context: A,
      etag: decoded(etagOf(confirm.text)),
    });
    expect(late.status).toBe(412);
    expect((await row(user._id))!.status).toBe('active');
  });

  it('expires and deletes through confirmations', async () => {
    const user = await givenGuest(testApp, { name: 'Short Stay', venueIds: [A] });
    const confirm = await staff.get(`/admin/users/${user._id}/expire?venueId=${A}`);
    expect(confirm.text).toContain('Active sessions that will be disconnected: 0');
    const done = await staff.post(`/admin/users/${user._id}/expire`, {
      context: A,
      etag: decoded(etagOf(confirm.text)),
    });
    expect(done.status).toBe(303);
    expect((await row(user._id))!.status).toBe('expired');
    expect((await staff.get(`/admin/users/${user._id}/expire?venueId=${A}`)).status).toBe(409);

    const del = await staff.get(`/admin/users/${user._id}/delete?venueId=${A}`);
    expect(del.status).toBe(200);
    const gone = await staff.post(`/admin/users/${user._id}/delete`, { context: A, etag: decoded(etagOf(del.text)) });
    expect(gone.status).toBe(303);
    expect(gone.headers.location).toBe(`/admin/users?venueId=${A}&notice=notice.users.deleted`);
    expect(await row(user._id)).toBeNull();
    expect((await audit(user._id)).map((e) => e.action)).toEqual(['user.create', 'user.expire', 'user.delete']);
    const list = await staff.get(gone.headers.location);
    expect(list.text).toContain('The user was deleted.');
  });

  it('needs delete permission to delete', async () => {
    const user = await givenGuest(testApp, { name: 'Keep Me', venueIds: [A] });
    expect((await writer.get(`/admin/users/${user._id}/delete?venueId=${A}`)).status).toBe(403);
    expect((await writer.post(`/admin/users/${user._id}/delete`, { context: A, etag: '"v1"' })).status).toBe(403);
    expect(await row(user._id)).not.toBeNull();
    expect((await writer.get(`/admin/users?venueId=${A}`)).text).not.toContain('/delete?');
  });

  it('never shows a venue-A operator anything of venue B, whatever the URL or form says', async () => {
    const list = await venueA.get(`/admin/users?venueId=${B}`);
    expect(list.status).toBe(403);
    expect(list.text).not.toContain('Bora');
    // The refusal page's language buttons lead back into the console.
    expect(list.text).toContain('<input type="hidden" name="back" value="/admin">');
    const search = await venueA.get(`/admin/users?q=bora`);
    expect(search.text).not.toContain('Bora');
    const phone = await venueA.get(`/admin/users?venueId=${A}&q=90533`);
    expect(phone.text).not.toContain('Bora');
    for (const path of ['edit', 'block', 'expire', 'delete']) {
      for (const query of ['', `?venueId=${B}`, `?venueId=${A}`]) {
        const page = await venueA.get(`/admin/users/${userB._id}/${path}${query}`);
        expect([403, 404]).toContain(page.status);
        expect(page.text).not.toContain('Bora');
      }
    }
    for (const context of [B, A, '']) {
      const blocked = await venueA.post(`/admin/users/${userB._id}/block`, { context, etag: '"v1"' });
      expect([403, 404]).toContain(blocked.status);
      const edited = await venueA.post(`/admin/users/${userB._id}/edit`, {
        context,
        etag: '"v1"',
        name: 'x',
        venueIds: B,
      });
      expect([403, 404]).toContain(edited.status);
    }
    expect((await row(userB._id))!).toMatchObject({ status: 'active', name: 'Bora Venue-B' });
    const created = await venueA.post('/admin/users/new', {
      context: A,
      loginMethod: 'guest',
      name: 'Sneaky',
      venueIds: B,
    });
    expect(created.status).toBe(403);
    expect(created.text).toContain('One of these venues is not yours: use only the venues you manage.');
    expect(await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ name: 'Sneaky' })).toEqual([]);
    // A user of A moved into B through the edit form's venues.
    const own = await givenGuest(testApp, { name: 'Stay In A', venueIds: [A] });
    const moved = await venueA.post(`/admin/users/${own._id}/edit`, {
      context: A,
      etag: '"v1"',
      name: 'Stay In A',
      venueIds: `${A}, ${B}`,
    });
    expect(moved.status).toBe(403);
    expect((await api(testApp).users.get(own._id).expect(200)).body.data.venueIds).toEqual([A]);
  });

  it('shows a read-only operator no change controls, and refuses its forged posts', async () => {
    const user = await givenGuest(testApp, { name: 'Read Only View', venueIds: [A] });
    const list = await reader.get(`/admin/users?venueId=${A}`);
    expect(list.status).toBe(200);
    expect(list.text).toContain('Read Only View');
    expect(list.text).not.toMatch(
      /\/admin\/users\/new|\/edit\?|\/block\?|\/expire\?|\/delete\?|<form method="post"(?! action="\/admin\/(logout|language)")/,
    );
    expect((await reader.get('/admin/users/new')).status).toBe(403);
    expect((await reader.get(`/admin/users/${user._id}/edit?venueId=${A}`)).status).toBe(403);
    expect((await reader.get(`/admin/users/${user._id}/block?venueId=${A}`)).status).toBe(403);
    for (const path of [
      'new',
      `${user._id}/edit`,
      `${user._id}/block`,
      `${user._id}/unblock`,
      `${user._id}/expire`,
      `${user._id}/delete`,
    ]) {
      const forged = await reader.post(`/admin/users/${path}`, {
        context: A,
        etag: '"v1"',
        name: 'Forged',
        loginMethod: 'guest',
        venueIds: A,
      });
      expect(forged.status).toBe(403);
    }
    expect((await row(user._id))!).toMatchObject({ status: 'active', name: 'Read Only View' });
  });

  it('never answers odd input with a 500', async () => {
    const user = await givenGuest(testApp, { name: 'Odd Input', venueIds: [A] });
    const gets = [
      `/admin/users?venueId=${A}&q=${'x'.repeat(3000)}`,
      `/admin/users?venueId=${'v'.repeat(200)}`,
      '/admin/users?venueId=../../etc&status=nope&page=-5',
      `/admin/users?venueId=${A}&page=99999999999&status=blocked`,
      `/admin/users?venueId=${A}&q=%25_%5C&status[]=x`,
      `/admin/users?venueId=${A}&venueId=${B}`,
      `/admin/users/${'z'.repeat(500)}/edit`,
      '/admin/users/%ZZ/edit',
      `/admin/users/${user._id}/edit?venueId=%00`,
      `/admin/users/${user._id}/block?venueId=nowhere`,
    ];
    for (const path of gets) {
      const response = await staff.get(path);
      expect([path, response.status < 500]).toEqual([path, true]);
    }
    const posts: Array<[string, Record<string, string>]> = [
      ['/admin/users/new', {}],
      ['/admin/users/new', { loginMethod: 'social', name: 'x', venueIds: A }],
      ['/admin/users/new', { loginMethod: 'guest', name: 'x'.repeat(5000), venueIds: 'a,'.repeat(400) }],
      ['/admin/users/new', { loginMethod: 'guest', name: 'x', venueIds: A, metadata: '{"__proto__": {"x": 1}}' }],
      [
        '/admin/users/new',
        { loginMethod: 'username_password', name: 'x', username: 'u', password: 'abc', venueIds: A },
      ],
      [`/admin/users/${user._id}/edit`, { context: A }],
      [`/admin/users/${user._id}/edit`, { context: A, etag: 'garbage', name: 'x' }],
      [
        `/admin/users/${user._id}/edit`,
        { context: A, etag: '"v1"', name: '', venueIds: '', expiresAt: '2030-13-45T99:99' },
      ],
      [`/admin/users/${user._id}/block`, { context: 'bad venue', etag: '"v1"' }],
      [`/admin/users/${user._id}/block`, { context: A, etag: '*' }],
      ['/admin/users/nobody/expire', { context: A, etag: '"v1"' }],
    ];
    for (const [path, form] of posts) {
      const response = await staff.post(path, form);
      expect([path, response.status < 500]).toEqual([path, true]);
    }
    expect((await row(user._id))!).toMatchObject({ status: 'active', name: 'Odd Input' });
  });
});
