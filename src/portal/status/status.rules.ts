/** What the status page shows of a guest's standing, in whole units a guest reads. */
export interface StatusView {
  /** Until when the guest's access is valid (ms), or null when it has no end. */
  validUntil: number | null;
  /** Minutes of the plan's time left, or null when unlimited or without a plan. */
  minutesLeft: number | null;
  /** Bytes of the plan's data left, or null when unlimited or without a plan. */
  bytesLeft: number | null;
  /** Whether the plan refuses new logins now (its quota used up, too many devices or sessions). */
  usedUp: boolean;
}

export function statusView(
  expiresAt: number | null,
  standing: { refused: string | null; bytesLeft?: number | null; secondsLeft?: number | null } | null,
): StatusView {
  const secondsLeft = standing?.secondsLeft ?? null;
  return {
    validUntil: expiresAt,
    minutesLeft: secondsLeft === null ? null : Math.max(0, Math.floor(secondsLeft / 60)),
    bytesLeft: standing?.bytesLeft == null ? null : Math.max(0, standing.bytesLeft),
    usedUp: standing?.refused === 'quotaExhausted',
  };
}
