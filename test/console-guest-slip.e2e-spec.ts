import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { qrCodeSvg } from '../src/web/qr-svg.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MINUTE = 60_000;
const textById = (html: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]+)<`).exec(html)?.[1] ?? null;
const slipLinkOf = (html: string) =>
  /href="(\/admin\/users\/[^"]+\/slip\/[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
const etagOf = (html: string) => (/name="etag" value="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&quot;/g, '"');

/** A pino destination that keeps the app's log in memory, to prove no password reaches it. */
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
 * The guest slip, on both databases: reached from the result page of a create and of a password
 * reset, it shows the venue's SSID, a Wi-Fi join QR code of it, the username, the password within the
 * result's window only (to its session only), and the validity in the venue's zone, named; a venue
 * without an SSID says so and how to set one. The batch cards show the SSID too.
 */
describe.each(databaseKinds())('console guest slip [%s]', (kind) => {
  const HOTEL = 'slip-hotel';
  const PLAIN = 'slip-plain';
  const SSID = 'Grand; "Guest"';
  const ZONE = 'Europe/Istanbul';
  const clock = new ManualClock(new Date());
  const log = new CapturedLog();
  let testApp: TestApp;
  let desk: ConsoleBrowser;
  let other: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp(
      kind,
      { SECRETS_KEY: 'e'.repeat(64), LOG_LEVEL: 'info' },
      { clock, logDestination: log },
    );
    const venues = testApp.app.get(VenuesService);
    await venues.set(HOTEL, { displayName: 'Grand Hotel', ssid: SSID, timeZone: ZONE });
    await venues.set(PLAIN, { displayName: 'Plain Inn' });
    ({ console: desk } = await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: [HOTEL, PLAIN] }));
    ({ console: other } = await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: [HOTEL, PLAIN] }));
  }, 60_000);

  afterAll(async () => {
    await testApp?.close();
  });

  const create = async (venueId: string, fields: Record<string, string>) => {
    const created = await desk.post('/admin/users/new', {
      context: venueId,
      loginMethod: 'username_password',
      name: 'Ayşe Yılmaz',
      password: '',
      venueIds: venueId,
      expiresAt: '2031-06-01T12:00',
      ...fields,
    });
    expect(created.status).toBe(303);
    return desk.get(created.headers.location);
  };

  it("prints a slip after a create: SSID and its Wi-Fi QR code, username, password, validity in the venue's zone", async () => {
    const result = await create(HOTEL, { username: 'ayse1204' });
    const password = textById(result.text, 'generated-password')!;
    const link = slipLinkOf(result.text)!;
    expect(link).toMatch(/^\/admin\/users\/[0-9a-f-]{36}\/slip\/[0-9a-f-]{36}\?venueId=slip-hotel$/);
    const slip = await desk.get(link);
    expect(slip.status).toBe(200);
    expect(slip.headers['cache-control']).toBe('no-store');
    expect(slip.headers['content-type']).toMatch(/text\/html/);
    expect(slip.text).toContain('Guest slip for Ayşe Yılmaz');
    expect(slip.text).toContain('Grand Hotel');
    expect(slip.text).toContain('Grand; &quot;Guest&quot;');
    // The standard Wi-Fi join text of an open network, `;` and `"` escaped.
    expect(slip.text).toContain(qrCodeSvg('WIFI:T:nopass;S:Grand\\; \\"Guest\\";;', SSID));
    expect(slip.text).toContain('ayse1204');
    expect(textById(slip.text, 'slip-password')).toBe(password);
    // 12:00 in Istanbul, the zone named.
    expect(slip.text).toMatch(
      /<time datetime="2031-06-01T09:00:00.000Z"[^>]*>[^<]*12:00:00<\/time> <span class="zone-name">\(Europe\/Istanbul\)<\/span>/,
    );
    expect(slip.text).toContain('print.css');
    expect(slip.text).not.toContain('slip-no-ssid');

    // Another session (the same rights) gets no slip; after the window the slip shows no password.
    expect((await other.get(link)).status).toBe(404);
    clock.advance(10 * MINUTE + 1_000);
    const later = await desk.get(link);
    expect(later.status).toBe(200);
    expect(later.text).not.toContain(password);
    expect(later.text).toContain('no longer shown');
    expect(later.text).toContain('ayse1204');
    expect(log.text).not.toContain(password);
    expect(JSON.stringify(await testApp.dataSource.getRepository(AuditEventEntity).find())).not.toContain(password);
  });

  it('prints a slip after a password reset, and says so when the venue has no SSID', async () => {
    const guest = await givenUser(testApp, { username: 'plain-guest', venueIds: [PLAIN] });
    const form = await desk.get(`/admin/users/${guest._id}/password?venueId=${PLAIN}`);
    const reset = await desk.post(`/admin/users/${guest._id}/password`, {
      context: PLAIN,
      etag: etagOf(form.text),
      mode: 'generate',
    });
    expect(reset.status).toBe(303);
    const done = await desk.get(reset.headers.location);
    const password = textById(done.text, 'generated-password')!;
    const slip = await desk.get(slipLinkOf(done.text)!);
    expect(slip.status).toBe(200);
    expect(textById(slip.text, 'slip-password')).toBe(password);
    expect(slip.text).toContain('plain-guest');
    expect(slip.text).toContain('The venue slip-plain has no SSID');
    expect(slip.text).toContain('hotspot venue set &lt;venue&gt; --ssid &lt;SSID&gt;');
    expect(slip.text).not.toContain('<svg');
    // Its back link leads to the reset's result page.
    expect(slip.text).toContain(`href="${reset.headers.location.replace(/&/g, '&amp;')}"`);
  });

  it("refuses a slip of another user's result, and a read-only operator", async () => {
    const result = await create(HOTEL, { username: 'slip-two' });
    const link = slipLinkOf(result.text)!;
    const stranger = await givenUser(testApp, { venueIds: [HOTEL] });
    expect((await desk.get(link.replace(/users\/[^/]+\//, `users/${stranger._id}/`))).status).toBe(404);
    const { console: reader } = await signInConsole(testApp, { permissions: ['read'], venueIds: [HOTEL] });
    expect((await reader.get(link)).status).toBe(403);
  });

  it('shows the SSID and a Wi-Fi QR code on every batch card', async () => {
    const created = await desk.post('/admin/batches', { venueId: HOTEL, count: '2', validForHours: '24' });
    expect(created.status).toBe(303);
    const batchId = /\/admin\/batches\/([^?]+)/.exec(created.headers.location)![1];
    const cards = await desk.follow(await desk.post(`/admin/batches/${batchId}/print`, {}));
    expect(cards.status).toBe(200);
    expect(cards.text.match(/class="card"/g)).toHaveLength(2);
    expect(
      cards.text.match(/<span class="card-ssid">Network: <bdi>Grand; &quot;Guest&quot;<\/bdi><\/span>/g),
    ).toHaveLength(2);
    expect(cards.text.split(qrCodeSvg('WIFI:T:nopass;S:Grand\\; \\"Guest\\";;', SSID))).toHaveLength(3);
  });
});
