import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { EXPORT_PAGE_SIZE } from '../src/hotspot-users/user-export.service.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { givenGuest, givenUser } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The lines of a CSV answer (CRLF-ended), header first; cells with a quote, comma or line break are quoted. */
const linesOf = (text: string) => text.split('\r\n').filter((line) => line !== '');

/**
 * The users export, on both databases: a venue's users as CSV from the users list, every user once
 * (across the pages it is read in, with a batch's accounts all created at one instant), formulas
 * neutralised, the venue rules of the list (another venue's export is refused), a safe file name.
 */
describe.each(databaseKinds())('console users export [%s]', (kind) => {
  const A = 'export-a';
  const B = 'export-b';
  const BATCH_SIZE = EXPORT_PAGE_SIZE + 20;
  let testApp: TestApp;
  let desk: ConsoleBrowser;
  let batchId: string;

  beforeAll(async () => {
    testApp = await startTestApp(kind);
    // More accounts than a page, created at one instant: the pages must split them by id, never lose or repeat one.
    const batch = await testApp.http
      .post('/api/v1/hotspot-user-batches')
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({ venueId: A, count: BATCH_SIZE, label: 'Fair', validFor: 86_400 })
      .expect(201);
    batchId = batch.body.data.id;
    await givenUser(testApp, {
      name: '=HYPERLINK("http://evil.example","click")',
      username: 'formula',
      email: 'ayse@example.com',
      phone: '+90 532 111 22 33',
      room: '1204',
      venueIds: [A],
      expiresAt: '2031-06-01T09:00:00.000Z',
    });
    await givenGuest(testApp, { name: 'Secret of B', venueIds: [B] });
    ({ console: desk } = await signInConsole(testApp, { permissions: ['read'], venueIds: [A] }));
  }, 120_000);

  afterAll(async () => {
    await testApp?.close();
  });

  it('links the export from the users list of the venue', async () => {
    const list = await desk.get(`/admin/users?venueId=${A}`);
    expect(list.status).toBe(200);
    expect(list.text).toContain(
      `<a href="/admin/users/export.csv?venueId=${A}" download>Export the users of ${A} (CSV)</a>`,
    );
  });

  it("downloads every user of the venue once, newest first, formulas neutralised, and no other venue's", async () => {
    const answer = await desk.get(`/admin/users/export.csv?venueId=${A}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="users-export-a-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = linesOf(answer.text);
    expect(lines[0]).toBe(
      'username,name,email,phone,room,macAddress,status,loginMethod,expiresAt,validForHours,createdAt,batch,venues',
    );
    expect(lines).toHaveLength(1 + BATCH_SIZE + 1);
    // The newest first: the user created after the batch.
    expect(lines[1]).toMatch(
      /^formula,"'=HYPERLINK\(""http:\/\/evil\.example"",""click""\)",ayse@example\.com,'\+90 532 111 22 33,1204,,active,username_password,2031-06-01T09:00:00\.000Z,,\d{4}-[^,]+Z,,export-a$/,
    );
    const stored = await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ batchId });
    const exported = lines.slice(2).map((line) => line.split(','));
    expect(new Set(exported.map((cells) => cells[0])).size).toBe(BATCH_SIZE);
    expect(exported.map((cells) => cells[0]).sort()).toEqual(stored.map((user) => user.username).sort());
    expect(exported.every((cells) => cells[9] === '24' && cells[11] === batchId && cells[12] === A)).toBe(true);
    expect(answer.text).not.toContain('Secret of B');
  });

  it("refuses another venue's export, as the list refuses it, and a venue id that cannot be one", async () => {
    const refused = await desk.get(`/admin/users/export.csv?venueId=${B}`);
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/text\/html/);
    expect(refused.text).not.toContain('Secret of B');
    expect((await desk.get('/admin/users/export.csv')).status).toBe(400);
    expect((await desk.get('/admin/users/export.csv?venueId=bad%20venue!')).status).toBe(400);
  });

  it('exports an empty venue as the header alone', async () => {
    const { console: staff } = await signInConsole(testApp, { permissions: ['read'] });
    const empty = await staff.get('/admin/users/export.csv?venueId=export-empty');
    expect(empty.status).toBe(200);
    expect(linesOf(empty.text)).toHaveLength(1);
  });
});
