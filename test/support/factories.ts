import type { HotspotUserDto } from '../../src/hotspot-users/dto/hotspot-user.response.js';
import { UserSessionsService } from '../../src/hotspot-users/user-sessions.service.js';
import type { StartSessionInput } from '../../src/sessions/sessions.service.js';
import type { SessionEntity } from '../../src/sessions/entities/session.entity.js';
import { api } from './api-client.js';
import type { TestApp } from './test-app.js';

let sequence = 0;

/** A valid create body; each call gets a unique username, so tests do not clash by accident. */
export function userBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    name: `Guest ${sequence}`,
    loginMethod: 'username_password',
    username: `user${sequence}_${Date.now().toString(36)}`,
    password: 'secret-1',
    venueIds: ['venue-a'],
    ...overrides,
  };
}

/** What makes userBody a guest's: no username nor password, so no password hash to compute. */
export const GUEST = { loginMethod: 'guest', username: undefined, password: undefined };

/** A valid create body of a guest. */
export function guestBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return userBody({ ...GUEST, ...overrides });
}

/** Creates a user (userBody with `overrides`) through the API and returns the record from the response. */
export async function givenUser(
  testApp: TestApp,
  overrides: Record<string, unknown> = {},
  options: { token?: string } = {},
): Promise<HotspotUserDto> {
  const response = await api(testApp).users.create(userBody(overrides), options);
  if (response.status !== 201) {
    throw new Error(`creating a user failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
}

/** A guest (guestBody with `overrides`) created through the API. */
export function givenGuest(
  testApp: TestApp,
  overrides: Record<string, unknown> = {},
  options: { token?: string } = {},
) {
  return givenUser(testApp, { ...GUEST, ...overrides }, options);
}

/** givenUser with the token as a third argument. */
export function createUser(
  testApp: TestApp,
  overrides: Record<string, unknown> = {},
  token: string = testApp.adminToken,
): Promise<HotspotUserDto> {
  return givenUser(testApp, overrides, { token });
}

/** Records a session as the network side would (the service behind `npm run session -- start`). */
export function startSession(
  testApp: TestApp,
  input: Partial<StartSessionInput> & { userId: string },
): Promise<SessionEntity> {
  return testApp.app.get(UserSessionsService).start({
    venueId: 'venue-a',
    macAddress: 'AA:BB:CC:DD:EE:01',
    ...input,
  });
}

let device = 0;

/** A MAC address and an IP address no other call of this module hands out (a locally administered MAC). */
export function uniqueDevice(): { macAddress: string; ipAddress: string } {
  device += 1;
  const byte = (shift: number) => ((device >> shift) & 0xff).toString(16).padStart(2, '0').toUpperCase();
  return {
    macAddress: `02:F0:00:${byte(16)}:${byte(8)}:${byte(0)}`,
    ipAddress: `10.${240 + ((device >> 16) & 0x0f)}.${(device >> 8) & 0xff}.${device & 0xff}`,
  };
}

export interface UserWithSessionsOptions {
  /** The user's venues; venue-a when not given. */
  venues?: string[];
  /** How many active sessions, taking the venues in turn (session i is in venues[i % venues.length]); one per venue when not given. */
  sessions?: number;
  /** More fields of the create body (userBody), e.g. an email or expiresAt. */
  user?: Record<string, unknown>;
  /** Fields every session starts with, e.g. a nasId. */
  session?: Partial<Omit<StartSessionInput, 'userId' | 'venueId'>>;
}

export interface UserWithSessions {
  /** The record as the create answered it (devices still empty). */
  user: HotspotUserDto;
  /** The sessions in the order they started, each with its own MAC and IP address. */
  sessions: SessionEntity[];
}

/**
 * A user created through the API, with active sessions started through UserSessionsService.start,
 * each on a device of its own.
 */
export async function givenUserWithSessions(
  testApp: TestApp,
  options: UserWithSessionsOptions = {},
): Promise<UserWithSessions> {
  const venues = options.venues ?? ['venue-a'];
  const user = await givenUser(testApp, { venueIds: venues, ...options.user });
  const sessions: SessionEntity[] = [];
  for (let i = 0; i < (options.sessions ?? venues.length); i++) {
    sessions.push(
      await startSession(testApp, {
        userId: user._id,
        venueId: venues[i % venues.length],
        ...uniqueDevice(),
        ...options.session,
      }),
    );
  }
  return { user, sessions };
}

let emails = 0;

/** An email address no other call of this module hands out. */
export function uniqueEmail(prefix = 'user'): string {
  emails += 1;
  return `${prefix}-${emails}@example.com`;
}
