import type { ApiTokenEntity } from './entities/api-token.entity.js';
import {
  LAST_USED_WRITE_INTERVAL_MS,
  isExpired,
  lastUseIsDue,
  toAuthenticated,
  tokenRevision,
  tokenStatus,
  wasRevokedBefore,
} from './token-rules.js';

const at = (iso: string) => new Date(iso);
const NOW = at('2030-01-01T12:00:00.000Z');

describe('token rules', () => {
  it('isExpired: never without an expiry; from the expiry instant on, not a millisecond before', () => {
    expect(isExpired(null, NOW.getTime())).toBe(false);
    expect(isExpired(NOW, NOW.getTime() - 1)).toBe(false);
    expect(isExpired(NOW, NOW.getTime())).toBe(true);
    expect(isExpired(NOW, NOW.getTime() + 1)).toBe(true);
  });

  it('tokenStatus: active, expired at its expiry, and revoked above all', () => {
    expect(tokenStatus({ revokedAt: null, expiresAt: null }, NOW)).toBe('active');
    expect(tokenStatus({ revokedAt: null, expiresAt: at('2030-01-01T12:00:00.001Z') }, NOW)).toBe('active');
    expect(tokenStatus({ revokedAt: null, expiresAt: NOW }, NOW)).toBe('expired');
    expect(
      tokenStatus({ revokedAt: at('2031-01-01T00:00:00.000Z'), expiresAt: at('2029-01-01T00:00:00.000Z') }, NOW),
    ).toBe('revoked');
  });

  it('wasRevokedBefore: only a revocation time earlier than the call', () => {
    expect(wasRevokedBefore({ revokedAt: null }, NOW)).toBe(false);
    expect(wasRevokedBefore({ revokedAt: NOW }, NOW)).toBe(false);
    expect(wasRevokedBefore({ revokedAt: at('2030-01-01T11:59:59.999Z') }, NOW)).toBe(true);
  });

  it(`lastUseIsDue: on first use, then once ${LAST_USED_WRITE_INTERVAL_MS} ms have passed`, () => {
    const last = NOW.getTime();
    expect(lastUseIsDue(null, last)).toBe(true);
    expect(lastUseIsDue(last, last)).toBe(false);
    expect(lastUseIsDue(last, last + LAST_USED_WRITE_INTERVAL_MS - 1)).toBe(false);
    expect(lastUseIsDue(last, last + LAST_USED_WRITE_INTERVAL_MS)).toBe(true);
  });

  it('tokenRevision changes with a new token and with a revocation', () => {
    const before = tokenRevision({ total: 3, revoked: 1 });
    expect(tokenRevision({ total: 3, revoked: 1 })).toBe(before);
    expect(tokenRevision({ total: 4, revoked: 1 })).not.toBe(before);
    expect(tokenRevision({ total: 3, revoked: 2 })).not.toBe(before);
  });

  it('toAuthenticated keeps who the caller is and what it may do, never the hash', () => {
    const record = {
      id: 't1',
      name: 'front desk',
      prefix: 'hsp_abcdefgh',
      tokenHash: 'f'.repeat(64),
      permissions: ['read'],
      venueIds: ['A'],
      createdAt: NOW,
      lastUsedAt: null,
      revokedAt: null,
      expiresAt: null,
    } as ApiTokenEntity;
    expect(toAuthenticated(record)).toEqual({
      kind: 'token',
      id: 't1',
      name: 'front desk',
      permissions: ['read'],
      venueIds: ['A'],
      expiresAt: null,
    });
  });
});
