import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../config/configuration.js';
import { requestCookies } from '../web/cookies.js';
import { NO_GATEWAY, type GatewayContext } from './gateways/gateway.js';
import { PORTAL_PREFIX } from './portal-paths.js';

/** A guest's visit to a venue's portal: the gateway's context from the redirect, and its form secret. */
export interface PortalSession {
  venueId: string;
  gateway: GatewayContext;
  /** The secret the session's form tokens are made from (random, never shown). */
  formSecret: string;
  /** When the guest arrived, in ms. */
  startedAt: number;
  /** The user a way in admitted in this visit (the status page shows it), and until when it is valid (ms). */
  admitted?: { userId: string; expiresAt: number | null };
  /** The SMS way's phone challenge (src/portal/sms) and the terms accepted with it: never in a URL. */
  sms?: { challengeId: string; termsVersion: string | null };
}

const COOKIE = 'hotspot_portal';
/** A visit lasts this long: time enough to receive an SMS code or sign in elsewhere, then start again. */
export const PORTAL_SESSION_MS = 60 * 60 * 1000;
/** The longest sealed value written: browsers keep cookies of up to 4096 bytes with name and attributes. */
const MAX_COOKIE_LENGTH = 3800;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The portal session lives in its cookie alone (no table: a trapped guest's visit costs no write),
 * sealed with AES-256-GCM under a key derived from SECRETS_KEY, so the guest can neither read nor
 * change the gateway context it holds (the login URL the hand-over posts to, the openNDS hid). Without
 * SECRETS_KEY the key is drawn at start-up: sessions then end with the process and need one instance.
 * HttpOnly, SameSite=Lax (the gateway's redirect is a cross-site navigation), Secure over HTTPS.
 */
@Injectable()
export class PortalSessions {
  private readonly sealKey: Buffer;
  private readonly formKey: Buffer;

  constructor(config: ConfigService<AppConfig, true>) {
    const secret = config.get('secretsKey', { infer: true }) ?? randomBytes(32);
    this.sealKey = Buffer.from(hkdfSync('sha256', secret, 'hotspot-portal', 'session-seal', 32));
    this.formKey = Buffer.from(hkdfSync('sha256', secret, 'hotspot-portal', 'form-token', 32));
  }

  /** The request's session of this venue, unless missing, altered, of another venue or too old. */
  read(request: Request, venueId: string, now: number): PortalSession | null {
    const sealed = requestCookies(request).get(COOKIE);
    if (sealed === undefined) return null;
    const session = this.open(sealed);
    if (session === null || session.venueId !== venueId) return null;
    if (now - session.startedAt > PORTAL_SESSION_MS || session.startedAt > now + 60_000) return null;
    return session;
  }

  /** A new session of the venue with this gateway context. */
  start(venueId: string, gateway: GatewayContext, now: number): PortalSession {
    return { venueId, gateway, formSecret: randomBytes(16).toString('base64url'), startedAt: now };
  }

  /**
   * Sets the session's cookie. A browser drops a cookie over about 4 kB without a word: a context
   * with long URLs loses where the guest was going and the log-out link first (the guest then lands
   * on the status page), and the gateway's login URL last.
   */
  write(request: Request, response: Response, session: PortalSession): void {
    let sealed = this.seal(session);
    if (sealed.length > MAX_COOKIE_LENGTH) {
      sealed = this.seal({ ...session, gateway: { ...session.gateway, landingUrl: null, logoutUrl: null } });
    }
    if (sealed.length > MAX_COOKIE_LENGTH) {
      sealed = this.seal({ ...session, gateway: { ...NO_GATEWAY, mac: session.gateway.mac, ip: session.gateway.ip } });
    }
    response.cookie(COOKIE, sealed, {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.secure,
      path: PORTAL_PREFIX,
      maxAge: PORTAL_SESSION_MS,
    });
  }

  /** The hidden field of the session's forms (a MAC of its secret: a page of another session's is refused). */
  formToken(session: PortalSession): string {
    return createHmac('sha256', this.formKey).update(session.formSecret).digest('base64url');
  }

  isFormToken(session: PortalSession, token: string): boolean {
    const expected = Buffer.from(this.formToken(session));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private seal(session: PortalSession): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv, { authTagLength: TAG_BYTES });
    const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  private open(sealed: string): PortalSession | null {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString();
      return JSON.parse(text) as PortalSession;
    } catch {
      return null;
    }
  }
}
