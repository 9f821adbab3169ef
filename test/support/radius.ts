import { NasService } from '../../src/nas/nas.service.js';
import type { TestApp } from './test-app.js';

/** An attribute's value as the test gives it: one value or several. */
type AttributeValue = string | number | Array<string | number>;

/**
 * A body as rlm_rest (body = 'json') sends it: every attribute as {"type", "value": [ … ]}. Non-ASCII
 * text is sent as FreeRADIUS's encoder does, one code point per UTF-8 byte (`josé` → `josÃ©`).
 */
export function rlmBody(
  attributes: Record<string, AttributeValue>,
): Record<string, { type: string; value: Array<string | number> }> {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => {
      const values = (Array.isArray(value) ? value : [value]).map((item) =>
        typeof item === 'string' ? Buffer.from(item, 'utf8').toString('latin1') : item,
      );
      return [name, { type: typeof values[0] === 'number' ? 'integer' : 'string', value: values }];
    }),
  );
}

export interface TestNas {
  id: string;
  name: string;
  venueId: string;
  /** The source address FreeRADIUS would report (inside the registered network). */
  ip: string;
}

let nasSequence = 0;

/** Registers a NAS in `venueId` for the 10.99.x.0/24 network. */
export async function givenNas(testApp: TestApp, venueId = 'venue-a'): Promise<TestNas> {
  nasSequence += 1;
  const name = `nas-${nasSequence}-${Date.now().toString(36)}`;
  const nas = await testApp.app.get(NasService).add({
    venueId,
    name,
    ipAddress: `10.99.${nasSequence % 250}.0/24`,
    secret: 'a-shared-secret-of-some-length',
  });
  return { id: nas.id, name, venueId, ip: `10.99.${nasSequence % 250}.7` };
}

/** Calls a /radius/ route as FreeRADIUS does: the token, the client headers and the JSON body. */
export function radiusCall(
  testApp: TestApp,
  token: string,
  section: 'authorize' | 'accounting' | 'post-auth',
  nas: Pick<TestNas, 'name' | 'ip'>,
  body: unknown,
  headers: Record<string, string> = {},
) {
  let request = testApp.http
    .post(`/radius/${section}`)
    .set('Authorization', `Bearer ${token}`)
    .set('X-Radius-Client', nas.name)
    .set('X-Radius-Client-Ip', nas.ip)
    .set('X-FreeRADIUS-Section', section);
  for (const [name, value] of Object.entries(headers)) request = request.set(name, value);
  return request.send(body as object);
}

/** The user id in an Accept's Class (hex octets of `hsp:<id>`). */
export function classUserId(value: string): string {
  return Buffer.from(value.replace(/^0x/, ''), 'hex').toString('utf8').replace(/^hsp:/, '');
}

/** A NAS registered for a NasSimulator: FreeRADIUS's client name for it and the address its packets come from. */
export async function registerSimulatedNas(
  testApp: TestApp,
  simulator: { address: string; port: number; secret: string },
  name: string,
  venueId = 'venue-a',
): Promise<Pick<TestNas, 'name' | 'ip'>> {
  await testApp.app.get(NasService).add({
    venueId,
    name,
    ipAddress: simulator.address,
    secret: simulator.secret,
    coaPort: simulator.port,
    vendor: 'mikrotik',
  });
  return { name, ip: simulator.address };
}

let accountingSequence = 0;

/** An accounting Start from `nas` as FreeRADIUS passes it on (the session's IP 10.0.0.5 unless given); its Acct-Session-Id. */
export async function accountingStart(
  testApp: TestApp,
  radiusToken: string,
  nas: Pick<TestNas, 'name' | 'ip'>,
  session: { username: string; mac: string; ipAddress?: string },
): Promise<string> {
  accountingSequence += 1;
  const acctSessionId = `acct-${accountingSequence}-${Date.now().toString(36)}`;
  await radiusCall(
    testApp,
    radiusToken,
    'accounting',
    nas,
    rlmBody({
      'Acct-Status-Type': 'Start',
      'User-Name': session.username,
      'Acct-Session-Id': acctSessionId,
      'Acct-Unique-Session-Id': `unique-${acctSessionId}`,
      'Calling-Station-Id': session.mac,
      'Framed-IP-Address': session.ipAddress ?? '10.0.0.5',
      'NAS-IP-Address': '192.0.2.10',
      'Acct-Session-Time': 0,
    }),
  ).expect(204);
  return acctSessionId;
}
