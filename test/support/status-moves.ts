import { HotspotUsersService } from '../../src/hotspot-users/hotspot-users.service.js';
import type { TestApp } from './test-app.js';

/** The ways a user stops being active, which the race suites set against session starts and accounting. */
export type Move = 'blocked' | 'expire' | 'sweep' | 'delete';

/** What the user's status becomes after each move; null: the user is gone. */
export const FINAL_STATUS: Record<Move, string | null> = {
  blocked: 'blocked',
  expire: 'expired',
  sweep: 'expired',
  delete: null,
};

const USERS = '/api/v1/hotspot-users';

/** Makes the move on `userId` as an operator (PUT, POST expire, DELETE) or the expiry sweep would. */
export async function makeMove(testApp: TestApp, which: Move, userId: string): Promise<void> {
  const auth = `Bearer ${testApp.adminToken}`;
  if (which === 'blocked') {
    await testApp.http.put(`${USERS}/${userId}`).set('Authorization', auth).send({ status: 'blocked' }).expect(200);
  } else if (which === 'expire') {
    await testApp.http.post(`${USERS}/${userId}/expire`).set('Authorization', auth).expect(200);
  } else if (which === 'delete') {
    await testApp.http.delete(`${USERS}/${userId}`).set('Authorization', auth).expect(200);
  } else {
    await testApp.app.get(HotspotUsersService).expireDue(10);
  }
}

/** Resolves after `turns` turns of the event loop: staggers the racers so each order gets its chance. */
export const eventLoopTurns = (turns: number): Promise<void> =>
  new Promise((resolve) => {
    let left = turns;
    const next = () => (left-- <= 0 ? resolve() : setImmediate(next));
    next();
  });
