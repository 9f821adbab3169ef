import type { NasVendor } from '../nas/nas-rules.js';
import type { PlanLimits } from '../plans/plan-limits.js';

/**
 * The reply attributes of an accepted login, as pure functions: what the NAS is told of the user's
 * plan, in the attributes its vendor reads (names and units from FreeRADIUS's dictionaries:
 * dictionary.wispr, .mikrotik, .chillispot, .pfsense). What a NAS cannot be told (a quota beyond a
 * 32-bit attribute, a quota on a NAS without one) the service enforces from accounting.
 */

/** What is left of the plan's allowances in the current period; null: no such limit. */
export interface AllowanceLeft {
  /** Octets in and out together. */
  bytesLeft: number | null;
  /** Seconds online. */
  secondsLeft: number | null;
}

export interface PlanReplyInput {
  vendor: NasVendor;
  /** The login's effective plan; null: none. */
  plan: PlanLimits | null;
  left: AllowanceLeft;
  /** The Session-Timeout without a plan: the time to the user's expiry, capped by RADIUS_MAX_SESSION_SECONDS. */
  sessionTimeout: number;
  /** RADIUS_INTERIM_SECONDS: the interim interval of a plan that sets none. */
  interimSeconds: number;
}

/** Reply attributes by their FreeRADIUS names; integers as numbers, strings as text. */
export type ReplyAttributes = Record<string, number | string>;

/** The largest value of a RADIUS `integer` attribute (32 bits, unsigned). */
export const MAX_INTEGER_ATTRIBUTE = 4_294_967_295;
const GIGAWORD = 2 ** 32;

/** No allowance limited: a login on no plan, or on a plan without quota or time allowance. */
export const UNLIMITED: AllowanceLeft = { bytesLeft: null, secondsLeft: null };

/**
 * Session-Timeout (the least of the expiry, the session limit and the time left), Acct-Interim-Interval
 * (the plan's, else the configured one), Idle-Timeout (the plan's), and the vendor's rate and quota
 * attributes.
 */
export function planReply(input: PlanReplyInput): ReplyAttributes {
  const { plan, left } = input;
  const reply: ReplyAttributes = {
    'Session-Timeout':
      left.secondsLeft === null
        ? input.sessionTimeout
        : Math.max(1, Math.min(input.sessionTimeout, Math.floor(left.secondsLeft))),
    'Acct-Interim-Interval': plan?.interimIntervalSeconds ?? input.interimSeconds,
  };
  if (plan === null) return reply;
  if (plan.idleTimeoutSeconds !== null) reply['Idle-Timeout'] = plan.idleTimeoutSeconds;
  return {
    ...reply,
    ...VENDOR_REPLIES[input.vendor](plan, left.bytesLeft === null ? null : Math.max(0, left.bytesLeft)),
  };
}

type VendorReply = (plan: PlanLimits, bytesLeft: number | null) => ReplyAttributes;

/** WISPr: rates in bit/s; no quota attribute. */
const wispr: VendorReply = (plan) =>
  present({ 'WISPr-Bandwidth-Max-Up': plan.uploadRate, 'WISPr-Bandwidth-Max-Down': plan.downloadRate });

/**
 * MikroTik: Mikrotik-Rate-Limit `rx/tx` from the router's side, i.e. upload/download of the user, in
 * bit/s (0: no limit); Mikrotik-Total-Limit the octets in and out, its high part in
 * Mikrotik-Total-Limit-Gigawords (units of 2^32).
 */
const mikrotik: VendorReply = (plan, bytesLeft) => ({
  ...(plan.uploadRate === null && plan.downloadRate === null
    ? {}
    : { 'Mikrotik-Rate-Limit': `${plan.uploadRate ?? 0}/${plan.downloadRate ?? 0}` }),
  ...(bytesLeft === null
    ? {}
    : {
        'Mikrotik-Total-Limit': bytesLeft % GIGAWORD,
        'Mikrotik-Total-Limit-Gigawords': Math.floor(bytesLeft / GIGAWORD),
      }),
});

/** CoovaChilli (ChilliSpot's attributes): rates in kbit/s, rounded down; the quota when 32 bits hold it. */
const coova: VendorReply = (plan, bytesLeft) =>
  present({
    'ChilliSpot-Bandwidth-Max-Up': plan.uploadRate === null ? null : Math.floor(plan.uploadRate / 1000),
    'ChilliSpot-Bandwidth-Max-Down': plan.downloadRate === null ? null : Math.floor(plan.downloadRate / 1000),
    'ChilliSpot-Max-Total-Octets': fitsInteger(bytesLeft),
  });

/** pfSense's captive portal: rates in bit/s; the quota when 32 bits hold it. */
const pfsense: VendorReply = (plan, bytesLeft) =>
  present({
    'pfSense-Bandwidth-Max-Up': plan.uploadRate,
    'pfSense-Bandwidth-Max-Down': plan.downloadRate,
    'pfSense-Max-Total-Octets': fitsInteger(bytesLeft),
  });

const VENDOR_REPLIES: Record<NasVendor, VendorReply> = {
  mikrotik,
  coova,
  pfsense,
  unifi: wispr,
  cisco: wispr,
  other: wispr,
};

function fitsInteger(value: number | null): number | null {
  return value !== null && value <= MAX_INTEGER_ATTRIBUTE ? value : null;
}

function present(attributes: Record<string, number | string | null>): ReplyAttributes {
  return Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== null)) as ReplyAttributes;
}
