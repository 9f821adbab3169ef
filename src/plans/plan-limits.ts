/** What a plan limits (every limit optional: null is none), as the v1 API and the RADIUS rules read it. */

/** The periods a data quota is counted over: one session, one day in the venue's time zone, or ever. */
export const QUOTA_PERIODS = ['session', 'day', 'total'] as const;
export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

export interface PlanLimits {
  /** Bits per second towards the user. */
  downloadRate: number | null;
  /** Bits per second from the user. */
  uploadRate: number | null;
  /** Octets in and out together per `quotaPeriod`. */
  quotaBytes: number | null;
  quotaPeriod: QuotaPeriod | null;
  /** Seconds online per day (in the venue's time zone). */
  dailyTimeSeconds: number | null;
  /** Seconds online in total. */
  totalTimeSeconds: number | null;
  idleTimeoutSeconds: number | null;
  /** Sessions at the same time. */
  maxSessions: number | null;
  /** Distinct devices (MACs) the user ever logs in from. */
  maxDevices: number | null;
  /** The Acct-Interim-Interval the NAS is told, in seconds. */
  interimIntervalSeconds: number | null;
}

export type PlanLimit = keyof PlanLimits;

export const PLAN_LIMITS: readonly PlanLimit[] = [
  'downloadRate',
  'uploadRate',
  'quotaBytes',
  'quotaPeriod',
  'dailyTimeSeconds',
  'totalTimeSeconds',
  'idleTimeoutSeconds',
  'maxSessions',
  'maxDevices',
  'interimIntervalSeconds',
];

/** A login's effective plan: its id and name with its limits. */
export interface EffectivePlan extends PlanLimits {
  id: string;
  name: string;
}
