import type { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { AppConfig } from '../config/configuration.js';
import { NO_GATEWAY, type GatewayContext } from './gateways/gateway.js';
import { PORTAL_SESSION_MS, PortalSessions } from './portal-session.js';

const config = { get: () => Buffer.alloc(32, 7) } as unknown as ConfigService<AppConfig, true>;
const GATEWAY: GatewayContext = {
  ...NO_GATEWAY,
  vendor: 'mikrotik',
  mac: '02:00:00:00:00:01',
  ip: '10.0.0.2',
  loginUrl: 'http://10.0.0.1/login',
  landingUrl: 'http://example.com/',
};

/** Writes the session's cookie and returns what the browser would send back. */
function written(sessions: PortalSessions, session: ReturnType<PortalSessions['start']>): string {
  let value = '';
  const response = { cookie: (_name: string, sealed: string) => (value = sealed) } as unknown as Response;
  sessions.write({ secure: false } as Request, response, session);
  return value;
}

const requestWith = (value: string) => ({ headers: { cookie: `hotspot_portal=${value}` } }) as unknown as Request;

describe('PortalSessions', () => {
  const sessions = new PortalSessions(config);
  const now = 1_800_000_000_000;

  it('reads back what it sealed, for its venue and within its hour only', () => {
    const session = sessions.start('lobby', GATEWAY, now);
    const sealed = written(sessions, session);
    expect(sealed).not.toContain('10.0.0.1');
    expect(sessions.read(requestWith(sealed), 'lobby', now + 1000)).toEqual(session);
    expect(sessions.read(requestWith(sealed), 'terrace', now)).toBeNull();
    expect(sessions.read(requestWith(sealed), 'lobby', now + PORTAL_SESSION_MS + 1)).toBeNull();
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(sessions.read(requestWith(altered), 'lobby', now)).toBeNull();
    expect(new PortalSessions(config).read(requestWith(sealed), 'lobby', now)).toEqual(session);
  });

  it("form tokens are the session's own", () => {
    const one = sessions.start('lobby', GATEWAY, now);
    const two = sessions.start('lobby', GATEWAY, now);
    expect(sessions.isFormToken(one, sessions.formToken(one))).toBe(true);
    expect(sessions.isFormToken(two, sessions.formToken(one))).toBe(false);
    expect(sessions.isFormToken(one, '')).toBe(false);
  });

  it('drops the landing and log-out URLs before the cookie grows past what browsers keep', () => {
    const long = `http://example.com/${'x'.repeat(1900)}`;
    const session = sessions.start('lobby', { ...GATEWAY, landingUrl: long, logoutUrl: long }, now);
    const sealed = written(sessions, session);
    expect(sealed.length).toBeLessThanOrEqual(3800);
    expect(sessions.read(requestWith(sealed), 'lobby', now)?.gateway).toEqual({
      ...GATEWAY,
      landingUrl: null,
      logoutUrl: null,
    });
  });
});
