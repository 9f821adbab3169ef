import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { NasService } from '../src/nas/nas.service.js';
import { databaseKinds } from './support/databases.js';
import { radclient, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'a-shared-secret-for-the-portal-nas';
const VENUE = 'portal-venue';
const GUEST_MAC = '02:00:00:00:01:0A';
const GUEST_IP = '10.5.50.77';

/**
 * A MikroTik-like test gateway: it takes the portal's hand-over POST on /login, asks the real
 * FreeRADIUS (PAP Access-Request, as a NAS does), and when accepted sends an Accounting Start and
 * sends the browser on to `dst`; when rejected answers 401.
 */
function startTestGateway(radiusPorts: () => { auth: number; acct: number }): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      void (async () => {
        const form = new URLSearchParams(body);
        const username = form.get('username') ?? '';
        const ports = radiusPorts();
        const reply = await radclient(ports.auth, 'auth', SECRET, {
          'User-Name': username,
          'User-Password': form.get('password') ?? '',
          'Calling-Station-Id': GUEST_MAC,
          'Framed-IP-Address': GUEST_IP,
          'NAS-IP-Address': '127.0.0.1',
        });
        if (reply.type !== 'Access-Accept') {
          res.writeHead(401, { 'Content-Type': 'text/plain' }).end('login refused');
          return;
        }
        await radclient(ports.acct, 'acct', SECRET, {
          'Acct-Status-Type': 'Start',
          'User-Name': username,
          'Acct-Session-Id': `portal-${Date.now().toString(36)}`,
          'Calling-Station-Id': GUEST_MAC,
          'Framed-IP-Address': GUEST_IP,
          'NAS-IP-Address': '127.0.0.1',
        });
        res.writeHead(302, { Location: form.get('dst') ?? '/' }).end();
      })();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The hand-over form of a page: its action and fields. */
function handoverForm(html: string): { action: string; fields: URLSearchParams } {
  const action = /<form id="handover" method="post" action="([^"]+)">/.exec(html)?.[1];
  if (action === undefined) throw new Error(`no hand-over form in ${html}`);
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    if (name !== 'formToken') fields.append(name, value.replace(/&amp;/g, '&'));
  return { action, fields };
}

for (const kind of databaseKinds()) {
  describe(`guest portal hand-over through the real FreeRADIUS [${kind}]`, () => {
    let app: TestApp;
    let radius: StartedFreeRadius;
    let gateway: Server;
    let admin: string;

    beforeAll(async () => {
      app = await startTestApp(kind);
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      await app.app.get(NasService).add({ venueId: VENUE, name: 'portal-nas', ipAddress: '127.0.0.1', secret: SECRET });
      await app.app.get(VenuePortalsService).set(VENUE, { ways: ['terms'], termsText: 'Be kind to the network.' });
      admin = await app.createToken({ permissions: ['read'] });
      radius = await startFreeRadius({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: 5000,
        clients: [{ name: 'portal-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      });
      gateway = await startTestGateway(() => ({ auth: radius.authPort, acct: radius.acctPort }));
    }, 60_000);

    afterAll(async () => {
      await new Promise((resolve) => gateway?.close(resolve));
      await radius?.close();
      await app?.close();
    });

    it('terms accepted: the gateway logs the guest in with the pass, and the session shows in v1', async () => {
      const { port: gatewayPort } = gateway.address() as AddressInfo;
      const loginUrl = `http://127.0.0.1:${gatewayPort}/login`;
      const guest = request.agent(app.app.getHttpServer());
      await guest
        .get(`/portal/${VENUE}`)
        .query({ 'link-login-only': loginUrl, mac: GUEST_MAC, ip: GUEST_IP, dst: 'http://example.com/' })
        .expect(200);
      const page = await guest.get(`/portal/${VENUE}/terms`).expect(200);
      const formToken = /name="formToken" value="([^"]+)"/.exec(page.text)![1];
      const termsVersion = /name="termsVersion" value="([^"]+)"/.exec(page.text)![1];
      const handover = await guest
        .post(`/portal/${VENUE}/terms`)
        .type('form')
        .send({ formToken, acceptTerms: 'yes', termsVersion })
        .expect(200);
      const { action, fields } = handoverForm(handover.text);
      expect(action).toBe(loginUrl);
      expect(fields.get('username')).toBe('guest-02000000010a');

      // What the guest's browser does with the form: POST it to the gateway.
      const login = await fetch(action, { method: 'POST', body: fields, redirect: 'manual' });
      expect(login.status).toBe(302);
      expect(login.headers.get('location')).toBe('http://example.com/');

      const sessions = await app.http
        .get('/api/v1/sessions')
        .query({ venueId: VENUE })
        .set('Authorization', `Bearer ${admin}`)
        .expect(200);
      expect(sessions.body.data).toEqual([
        expect.objectContaining({ venueId: VENUE, nas: 'portal-nas', status: 'active', ipAddress: GUEST_IP }),
      ]);

      // The pass is the user's alone: another password for the same name is refused.
      fields.set('password', 'X'.repeat(24));
      const wrong = await fetch(action, { method: 'POST', body: fields, redirect: 'manual' });
      expect(wrong.status).toBe(401);
    });
  });
}
