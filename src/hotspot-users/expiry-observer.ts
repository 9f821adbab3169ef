/**
 * What the expiry sweep reports for whoever watches it (the metrics module, above, provides this as
 * EXPIRY_OBSERVER): one call per completed sweep run.
 */
export interface ExpiryObserver {
  expirySweepRan(usersExpired: number): void;
}

export const EXPIRY_OBSERVER = Symbol('EXPIRY_OBSERVER');
