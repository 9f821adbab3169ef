import type { AddressInfo } from 'node:net';
import { NasService } from '../src/nas/nas.service.js';
import type { NasVendor } from '../src/nas/nas-rules.js';
import type { PlanDto } from '../src/plans/dto/plan.response.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { databaseKinds } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { radtest, startFreeRadius, type RadiusReply, type StartedFreeRadius } from './support/freeradius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'a-shared-secret-for-the-plans-nas';
const PASSWORD = 'secret-1';

/** The attributes every accepted login of a user on the plan below carries, whatever the vendor. */
const COMMON = { 'Session-Timeout': ['7200'], 'Idle-Timeout': ['600'], 'Acct-Interim-Interval': ['120'] };

/** Each vendor hint's attributes for the plan below, as radclient prints them off the wire. */
const BY_VENDOR: Record<NasVendor, Record<string, string[]>> = {
  other: { 'WISPr-Bandwidth-Max-Up': ['1000500'], 'WISPr-Bandwidth-Max-Down': ['5000000'] },
  unifi: { 'WISPr-Bandwidth-Max-Up': ['1000500'], 'WISPr-Bandwidth-Max-Down': ['5000000'] },
  cisco: { 'WISPr-Bandwidth-Max-Up': ['1000500'], 'WISPr-Bandwidth-Max-Down': ['5000000'] },
  mikrotik: {
    'Mikrotik-Rate-Limit': ['1000500/5000000'],
    'Mikrotik-Total-Limit': ['1073741824'],
    'Mikrotik-Total-Limit-Gigawords': ['0'],
  },
  coova: {
    'ChilliSpot-Bandwidth-Max-Up': ['1000'],
    'ChilliSpot-Bandwidth-Max-Down': ['5000'],
    'ChilliSpot-Max-Total-Octets': ['1073741824'],
  },
  pfsense: {
    'pfSense-Bandwidth-Max-Up': ['1000500'],
    'pfSense-Bandwidth-Max-Down': ['5000000'],
    'pfSense-Max-Total-Octets': ['1073741824'],
  },
};

/** The reply's attributes without Class (the user id, checked by the FreeRADIUS suite). */
function limitsOf(reply: RadiusReply): Record<string, string[]> {
  const { Class: _class, ...rest } = reply.attributes;
  return rest;
}

/**
 * A plan's limits reach the NAS through the real FreeRADIUS of the generated configuration, in the
 * attributes of the NAS's vendor hint (changed between logins, read at each one, no restart).
 */
for (const kind of databaseKinds()) {
  describe(`plan limits on the wire, per vendor hint [${kind}]`, () => {
    let app: TestApp;
    let server: StartedFreeRadius;
    let nasId: string;
    let admin: string;

    beforeAll(async () => {
      app = await startTestApp(kind);
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      const nas = await app.app
        .get(NasService)
        .add({ venueId: 'venue-a', name: 'plans-nas', ipAddress: '127.0.0.1', secret: SECRET });
      nasId = nas.id;
      admin = await app.createToken({ permissions: ['write'] });
      server = await startFreeRadius({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: 5000,
        clients: [{ name: 'plans-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      });
    });

    afterAll(async () => {
      await server?.close();
      await app?.close();
    });

    const plan = async (body: object): Promise<PlanDto> => {
      const response = await app.http.post('/api/v1/plans').set('Authorization', `Bearer ${admin}`).send(body);
      expect(response.status).toBe(201);
      return response.body.data as PlanDto;
    };
    const login = (username: string) => radtest(server.authPort, SECRET, username, PASSWORD);
    const useVendor = (vendor: NasVendor) => app.app.get(NasService).update(nasId, { vendor });
    const lobby = {
      venueIds: ['venue-a'],
      downloadRate: 5_000_000,
      uploadRate: 1_000_500,
      quotaBytes: 1_073_741_824,
      quotaPeriod: 'day',
      dailyTimeSeconds: 7200,
      idleTimeoutSeconds: 600,
      interimIntervalSeconds: 120,
    };

    it.each(Object.keys(BY_VENDOR) as NasVendor[])(
      '%s: the plan of the user, in the vendor hint’s attributes and units',
      async (vendor) => {
        await server.explainFailures(async () => {
          const onPlan = await plan({ name: `Lobby ${vendor}`, ...lobby });
          const user = await givenUser(app, { planId: onPlan._id });
          await useVendor(vendor);
          const reply = await login(user.username!);
          expect(reply.type).toBe('Access-Accept');
          expect(limitsOf(reply)).toEqual({ ...COMMON, ...BY_VENDOR[vendor] });
        });
      },
    );

    it('a user without a plan gets the venue’s default plan; without either, only the expiry and interval', async () => {
      await server.explainFailures(async () => {
        await useVendor('mikrotik');
        const user = await givenUser(app);
        const none = await login(user.username!);
        expect(limitsOf(none)).toEqual({ 'Session-Timeout': ['86400'], 'Acct-Interim-Interval': ['300'] });

        const house = await plan({ name: 'House', venueIds: ['venue-a'], downloadRate: 2_000_000 });
        await app.app.get(VenuesService).set('venue-a', { defaultPlanId: house._id });
        const defaulted = await login(user.username!);
        expect(limitsOf(defaulted)).toEqual({
          'Session-Timeout': ['86400'],
          'Acct-Interim-Interval': ['300'],
          'Mikrotik-Rate-Limit': ['0/2000000'],
        });
        await app.app.get(VenuesService).set('venue-a', { defaultPlanId: null });
      });
    });

    it('a quota beyond 32 bits: MikroTik gets its gigawords, CoovaChilli no octet limit (the service enforces it)', async () => {
      await server.explainFailures(async () => {
        const big = await plan({ name: 'Big', venueIds: ['venue-a'], quotaBytes: 5 * 2 ** 30, quotaPeriod: 'total' });
        const user = await givenUser(app, { planId: big._id });
        await useVendor('mikrotik');
        const mikrotik = limitsOf(await login(user.username!));
        expect([mikrotik['Mikrotik-Total-Limit'], mikrotik['Mikrotik-Total-Limit-Gigawords']]).toEqual([
          ['1073741824'],
          ['1'],
        ]);
        await useVendor('coova');
        expect(limitsOf(await login(user.username!))).toEqual({
          'Session-Timeout': ['86400'],
          'Acct-Interim-Interval': ['300'],
        });
      });
    });
  });
}
