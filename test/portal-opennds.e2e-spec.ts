import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GuestIdentityEntity } from '../src/guest-access/entities/guest-identity.entity.js';
import { TermsAcceptanceEntity } from '../src/guest-access/entities/terms-acceptance.entity.js';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { databaseKinds } from './support/databases.js';
import { KANNEL_MISSING, kannelInstalled, startKannel, type Kannel } from './support/kannel.js';
import { decodeFas, GATEWAY_PORT, openNdsSkipReason, OpenNdsNetwork, type GuestResponse } from './support/opennds.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const VENUE = 'marina';
/** openNDS takes letters and digits; the venue's setting and opennds.conf hold the same key. */
const FAS_KEY = 'e2eFasKey5f3b0c8d1a7e4926';
const TERMS = 'Be kind to the network.';
const PHONES = { sqlite: '+905551000041', mysql: '+905551000042' } as const;

const skipReason = openNdsSkipReason() ?? (kannelInstalled() ? null : KANNEL_MISSING);
if (skipReason !== null) process.stderr.write(`portal-opennds e2e skipped: ${skipReason}\n`);
const describeGateway = skipReason === null ? describe : describe.skip;

/** The value of the hidden field `name` of a page's form. */
function hidden(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (found === null) throw new Error(`no field ${name} in ${html}`);
  return found[1];
}

/**
 * The portal behind a real gateway: Debian's openNDS (FAS level 1) in network namespaces of the
 * test's own, a guest's curl in another (a browser's requests, cookies in a jar), the service in the
 * root namespace as openNDS's FAS, and Debian's Kannel with fakesmsc as the SMS operator.
 */
describeGateway('a guest behind openNDS', () => {
  let kannel: Kannel | undefined;
  beforeAll(async () => {
    kannel = await startKannel();
  }, 30_000);
  afterAll(() => kannel?.stop());

  for (const kind of databaseKinds()) {
    describe(`[${kind}]`, () => {
      let dir: string;
      let network: OpenNdsNetwork | undefined;
      let app: TestApp | undefined;
      let portalOrigin: string;
      let cookieJar: string;
      /** What the service's HTTP server received: method, URL and the peer's address. */
      const received: { method: string; url: string; from: string }[] = [];

      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), 'hotspot-opennds-'));
        cookieJar = join(dir, 'cookies.txt');
        network = await OpenNdsNetwork.create(dir);
        app = await startTestApp(kind, {
          LOG_LEVEL: 'fatal',
          WORKER_ENABLED: 'true',
          SMS_GATEWAY: 'kannel',
          SMS_GATEWAY_URL: kannel!.sendsmsUrl,
          SMS_POLL_INTERVAL_MS: '50',
        });
        // The test's network is in 198.18.0.0/15 (set aside for tests), not a private range: the venue
        // lists it as its gateway's, as a venue whose gateway has a public address would.
        await app.app.get(VenuePortalsService).set(VENUE, {
          ways: ['sms'],
          displayName: 'Marina Café',
          termsText: TERMS,
          faskey: FAS_KEY,
          gatewayHosts: ['198.18.0.0/15'],
        });
        app.app.getHttpServer().on('request', (request: IncomingMessage) => {
          received.push({
            method: request.method ?? '',
            url: request.url ?? '',
            from: request.socket.remoteAddress ?? '',
          });
        });
        await app.app.listen(0, network.serverAddress);
        const { port } = app.app.getHttpServer().address() as AddressInfo;
        portalOrigin = `http://${network.serverAddress}:${port}`;
        await network.startGateway({
          fasRemoteIp: network.serverAddress,
          fasPort: port,
          fasPath: `/portal/${VENUE}`,
          fasKey: FAS_KEY,
        });
      }, 60_000);

      afterAll(async () => {
        await network?.close();
        await app?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      }, 30_000);

      /** Runs `check`; when it fails, prints what openNDS and the landing site printed. */
      const explained = async (check: () => Promise<void>): Promise<void> => {
        try {
          await check();
        } catch (error) {
          process.stderr.write(`openNDS output:\n${network?.logs().slice(-20_000)}\n`);
          throw error;
        }
      };

      /** The guest's browser: its cookies kept; a form posted from the portal's own page. */
      const browse = (url: string): Promise<GuestResponse> => network!.request(url, { cookieJar });
      const submit = (path: string, form: Record<string, string>): Promise<GuestResponse> =>
        network!.request(`${portalOrigin}${path}`, {
          cookieJar,
          form,
          headers: { Origin: portalOrigin, 'Sec-Fetch-Site': 'same-origin' },
        });

      it('is trapped and sent to the venue portal with the fas parameter, which the service answers', () =>
        explained(async () => {
          const net = network!;
          const trapped = await browse(`http://${net.webAddress}/news?page=1`);
          expect(trapped.status).toBe(307);
          const location = new URL(trapped.headers.location);
          expect(`${location.origin}${location.pathname}`).toBe(`${portalOrigin}/portal/${VENUE}`);
          const fas = decodeFas(location.searchParams.get('fas') ?? '');
          expect(fas).toMatchObject({
            clientip: net.guestAddress,
            clientmac: net.guestMac,
            gatewayaddress: `${net.gatewayAddress}:${GATEWAY_PORT}`,
          });
          expect(fas.hid).toMatch(/^[0-9a-f]{64}$/);
          expect(decodeURIComponent(fas.originurl)).toBe(`http://${net.webAddress}/news?page=1`);
          expect((await net.guest())?.state).toBe('Preauthenticated');

          const before = received.length;
          const start = await browse(location.href);
          expect(received.slice(before)).toEqual([
            { method: 'GET', url: `/portal/${VENUE}${location.search}`, from: net.guestAddress },
          ]);
          expect(start.status).toBe(200);
          expect(start.body).toContain('Marina Café');
          expect(start.body).toContain(`href="/portal/${VENUE}/sms"`);
        }));

      it('signs in by SMS code, is handed back to openNDS with the token and let through, as an sms user', () =>
        explained(async () => {
          const net = network!;
          const phone = PHONES[kind];
          const landing = `http://${net.webAddress}/news`;
          const trapped = await browse(landing);
          expect(trapped.status).toBe(307);
          const { hid } = decodeFas(new URL(trapped.headers.location).searchParams.get('fas') ?? '');

          // Skipping the portal takes the faskey: a token made with another key leaves the guest trapped.
          const forged = createHash('sha256').update(`${hid}another-key`).digest('hex');
          await browse(`http://${net.gatewayAddress}:${GATEWAY_PORT}/opennds_auth/?tok=${forged}&redir=x`);
          expect((await net.guest())?.state).toBe('Preauthenticated');

          expect((await browse(trapped.headers.location)).status).toBe(200);
          const phoneForm = await browse(`${portalOrigin}/portal/${VENUE}/sms`);
          expect(phoneForm.status).toBe(200);
          const seen = kannel!.received().length;
          const sent = await submit(`/portal/${VENUE}/sms`, {
            formToken: hidden(phoneForm.body, 'formToken'),
            phone,
            acceptTerms: 'yes',
            termsVersion: hidden(phoneForm.body, 'termsVersion'),
          });
          expect(sent.status).toBe(303);
          expect(sent.headers.location).toBe(`/portal/${VENUE}/sms/code`);

          const message = await kannel!.waitFor(
            (candidate) => candidate.to === phone && kannel!.received().indexOf(candidate) >= seen,
          );
          const code = /\b(\d{6})\b/.exec(message.text)?.[1] ?? '';
          expect(code).toMatch(/^\d{6}$/);
          const codeForm = await browse(`${portalOrigin}${sent.headers.location}`);
          expect(codeForm.status).toBe(200);
          const verified = await submit(`/portal/${VENUE}/sms/code`, {
            formToken: hidden(codeForm.body, 'formToken'),
            code,
          });
          expect(verified.status).toBe(303);
          const tok = createHash('sha256').update(`${hid}${FAS_KEY}`).digest('hex');
          expect(verified.headers.location).toBe(
            `http://${net.gatewayAddress}:${GATEWAY_PORT}/opennds_auth/?tok=${tok}&redir=${encodeURIComponent(landing)}`,
          );

          const handedBack = await browse(verified.headers.location);
          expect(handedBack.status).toBe(307);
          expect(handedBack.headers.location).toBe(landing);
          expect((await net.guest())?.state).toBe('Authenticated');
          expect(await browse(landing)).toMatchObject({ status: 200, body: 'landing /news' });

          const user = await app!.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ phone });
          expect(user).toMatchObject({ loginMethod: 'sms' });
          expect(await app!.dataSource.getRepository(GuestIdentityEntity).findBy({ userId: user.id })).toEqual([
            expect.objectContaining({ venueId: VENUE, kind: 'phone', issuer: '', subject: phone }),
          ]);
          expect(await app!.dataSource.getRepository(TermsAcceptanceEntity).findBy({ userId: user.id })).toEqual([
            expect.objectContaining({
              venueId: VENUE,
              macAddress: net.guestMac.toUpperCase(),
              ipAddress: net.guestAddress,
            }),
          ]);
        }));
    });
  }
});
