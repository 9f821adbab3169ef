import { UserSessionsService } from '../../src/hotspot-users/user-sessions.service.js';
import type { StartSessionInput } from '../../src/sessions/sessions.service.js';
import type { SessionEntity } from '../../src/sessions/entities/session.entity.js';
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

/** Creates a user through the API and returns the record from the response. */
export async function createUser(
  testApp: TestApp,
  overrides: Record<string, unknown> = {},
  token: string = testApp.adminToken,
): Promise<{ _id: string; [field: string]: unknown }> {
  const response = await testApp.http
    .post('/api/v1/hotspot-users')
    .set('Authorization', `Bearer ${token}`)
    .send(userBody(overrides));
  if (response.status !== 201) {
    throw new Error(`createUser failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
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
