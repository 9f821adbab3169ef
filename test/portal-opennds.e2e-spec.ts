import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseKinds } from './support/databases.js';
import { decodeFas, GATEWAY_PORT, openNdsSkipReason, OpenNdsNetwork } from './support/opennds.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const VENUE = 'venue-a';
const FAS_KEY = 'e2e-faskey-5f3b0c8d1a7e4926';

const skipReason = openNdsSkipReason();
if (skipReason !== null) process.stderr.write(`portal-opennds e2e skipped: ${skipReason}\n`);
const describeGateway = skipReason === null ? describe : describe.skip;

/**
 * The portal behind a real gateway: Debian's openNDS (FAS level 1) in network namespaces of the
 * test's own, a guest's curl in another, and the service in the root namespace as openNDS's FAS.
 */
for (const kind of databaseKinds()) {
  describeGateway(`the portal behind openNDS [${kind}]`, () => {
    let dir: string;
    let network: OpenNdsNetwork | undefined;
    let app: TestApp | undefined;
    let portalOrigin: string;
    /** What the service's HTTP server received: method, URL and the peer's address. */
    const received: { method: string; url: string; from: string }[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'hotspot-opennds-'));
      network = await OpenNdsNetwork.create(dir);
      app = await startTestApp(kind, { LOG_LEVEL: 'fatal' });
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

    it('traps the guest plain-HTTP request and sends it to the portal with the fas parameter, and the service receives it', () =>
      explained(async () => {
        const net = network!;
        const trapped = await net.request(`http://${net.webAddress}/news?page=1`);
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
        const portal = await net.request(location.href);
        expect(portal.status).toBeGreaterThan(0);
        expect(received.slice(before)).toEqual([
          { method: 'GET', url: `/portal/${VENUE}${location.search}`, from: net.guestAddress },
        ]);
      }));

    it('lets the guest through only with the token made from the hid and the faskey', () =>
      explained(async () => {
        const net = network!;
        const trapped = await net.request(`http://${net.webAddress}/news`);
        const { hid } = decodeFas(new URL(trapped.headers.location).searchParams.get('fas') ?? '');
        const redir = encodeURIComponent(`http://${net.webAddress}/news`);
        const authUrl = (tok: string) =>
          `http://${net.gatewayAddress}:${GATEWAY_PORT}/opennds_auth/?tok=${tok}&redir=${redir}`;

        const forged = createHash('sha256').update(`${hid}another-key`).digest('hex');
        await net.request(authUrl(forged));
        expect((await net.guest())?.state).toBe('Preauthenticated');
        expect((await net.request(`http://${net.webAddress}/news`)).status).toBe(307);

        const tok = createHash('sha256').update(`${hid}${FAS_KEY}`).digest('hex');
        const handedBack = await net.request(authUrl(tok));
        expect(handedBack.status).toBe(307);
        expect(handedBack.headers.location).toBe(`http://${net.webAddress}/news`);
        expect((await net.guest())?.state).toBe('Authenticated');
        const through = await net.request(`http://${net.webAddress}/news`);
        expect(through).toMatchObject({ status: 200, body: 'landing /news' });
      }));
  });
}
