import { serverSessionLimits, sessionLimitsStatement } from './server-session-limits.js';

describe('serverSessionLimits', () => {
  it('lets lock waits end with the deadline and an idle transaction outlive it by a second', () => {
    expect(serverSessionLimits(5000)).toEqual({
      lockWaitSeconds: 5,
      idleInTransactionSeconds: 6,
      idleSeconds: 12,
      poolIdleMs: 6000,
    });
  });

  it('rounds a deadline up to whole seconds, and keeps wait_timeout at 10 s or more', () => {
    expect(serverSessionLimits(100)).toEqual({
      lockWaitSeconds: 1,
      idleInTransactionSeconds: 2,
      idleSeconds: 10,
      poolIdleMs: 5000,
    });
    expect(serverSessionLimits(2001).lockWaitSeconds).toBe(3);
  });

  it('sets the MariaDB-only idle_transaction_timeout in a comment MySQL skips', () => {
    expect(sessionLimitsStatement(serverSessionLimits(2000))).toBe(
      'SET SESSION innodb_lock_wait_timeout = 2, lock_wait_timeout = 2, wait_timeout = 10 /*M!100300 , idle_transaction_timeout = 3 */',
    );
  });
});
