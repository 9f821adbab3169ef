import { NAS_VENDORS } from '../nas/nas-rules.js';
import type { PlanLimits } from '../plans/plan-limits.js';
import { planReply, UNLIMITED, type PlanReplyInput } from './plan-reply.rules.js';

const NO_LIMITS: PlanLimits = {
  downloadRate: null,
  uploadRate: null,
  quotaBytes: null,
  quotaPeriod: null,
  dailyTimeSeconds: null,
  totalTimeSeconds: null,
  idleTimeoutSeconds: null,
  maxSessions: null,
  maxDevices: null,
  interimIntervalSeconds: null,
};

const PLAN: PlanLimits = {
  ...NO_LIMITS,
  downloadRate: 5_000_000,
  uploadRate: 1_000_500,
  quotaBytes: 1_073_741_824,
  quotaPeriod: 'day',
  dailyTimeSeconds: 7200,
  idleTimeoutSeconds: 600,
  interimIntervalSeconds: 120,
};

const input = (fields: Partial<PlanReplyInput> = {}): PlanReplyInput => ({
  vendor: 'other',
  plan: PLAN,
  left: { bytesLeft: 1_073_741_824, secondsLeft: 7200 },
  sessionTimeout: 86_400,
  interimSeconds: 300,
  ...fields,
});

describe('planReply', () => {
  it('without a plan: the Session-Timeout given and the configured interim interval, nothing else', () => {
    for (const vendor of NAS_VENDORS) {
      expect(planReply(input({ vendor, plan: null, left: UNLIMITED }))).toEqual({
        'Session-Timeout': 86_400,
        'Acct-Interim-Interval': 300,
      });
    }
  });

  it('Session-Timeout is the least of the expiry (or session cap) and the time left', () => {
    expect(planReply(input())['Session-Timeout']).toBe(7200);
    expect(planReply(input({ sessionTimeout: 600 }))['Session-Timeout']).toBe(600);
    expect(planReply(input({ left: { bytesLeft: null, secondsLeft: 59.9 } }))['Session-Timeout']).toBe(59);
    expect(planReply(input({ left: { bytesLeft: null, secondsLeft: 0 } }))['Session-Timeout']).toBe(1);
  });

  it('other, unifi and cisco: the WISPr rates in bit/s, the plan idle timeout and interim interval', () => {
    for (const vendor of ['other', 'unifi', 'cisco'] as const) {
      expect(planReply(input({ vendor }))).toEqual({
        'Session-Timeout': 7200,
        'Acct-Interim-Interval': 120,
        'Idle-Timeout': 600,
        'WISPr-Bandwidth-Max-Up': 1_000_500,
        'WISPr-Bandwidth-Max-Down': 5_000_000,
      });
    }
  });

  it('mikrotik: Mikrotik-Rate-Limit upload/download in bit/s, the quota in Total-Limit and its gigawords', () => {
    expect(planReply(input({ vendor: 'mikrotik' }))).toEqual({
      'Session-Timeout': 7200,
      'Acct-Interim-Interval': 120,
      'Idle-Timeout': 600,
      'Mikrotik-Rate-Limit': '1000500/5000000',
      'Mikrotik-Total-Limit': 1_073_741_824,
      'Mikrotik-Total-Limit-Gigawords': 0,
    });
    const big = planReply(input({ vendor: 'mikrotik', left: { bytesLeft: 10 * 2 ** 32 + 5, secondsLeft: null } }));
    expect([big['Mikrotik-Total-Limit'], big['Mikrotik-Total-Limit-Gigawords']]).toEqual([5, 10]);
    const downOnly = planReply(input({ vendor: 'mikrotik', plan: { ...NO_LIMITS, downloadRate: 2_000_000 } }));
    expect(downOnly['Mikrotik-Rate-Limit']).toBe('0/2000000');
  });

  it('coova: ChilliSpot rates in kbit/s rounded down; the quota only while 32 bits hold it', () => {
    expect(planReply(input({ vendor: 'coova' }))).toEqual({
      'Session-Timeout': 7200,
      'Acct-Interim-Interval': 120,
      'Idle-Timeout': 600,
      'ChilliSpot-Bandwidth-Max-Up': 1000,
      'ChilliSpot-Bandwidth-Max-Down': 5000,
      'ChilliSpot-Max-Total-Octets': 1_073_741_824,
    });
    const big = planReply(input({ vendor: 'coova', left: { bytesLeft: 2 ** 32, secondsLeft: null } }));
    expect(big).not.toHaveProperty('ChilliSpot-Max-Total-Octets');
    const edge = planReply(input({ vendor: 'coova', left: { bytesLeft: 2 ** 32 - 1, secondsLeft: null } }));
    expect(edge['ChilliSpot-Max-Total-Octets']).toBe(4_294_967_295);
  });

  it('pfsense: pfSense rates in bit/s and the quota while 32 bits hold it', () => {
    expect(planReply(input({ vendor: 'pfsense' }))).toEqual({
      'Session-Timeout': 7200,
      'Acct-Interim-Interval': 120,
      'Idle-Timeout': 600,
      'pfSense-Bandwidth-Max-Up': 1_000_500,
      'pfSense-Bandwidth-Max-Down': 5_000_000,
      'pfSense-Max-Total-Octets': 1_073_741_824,
    });
  });

  it('sends no rate, quota or idle attribute for a limit the plan does not set', () => {
    for (const vendor of NAS_VENDORS) {
      expect(planReply(input({ vendor, plan: NO_LIMITS, left: UNLIMITED }))).toEqual({
        'Session-Timeout': 86_400,
        'Acct-Interim-Interval': 300,
      });
    }
  });

  it('never tells a NAS a negative quota', () => {
    const spent = planReply(input({ vendor: 'pfsense', left: { bytesLeft: -10, secondsLeft: 10 } }));
    expect(spent['pfSense-Max-Total-Octets']).toBe(0);
  });
});
