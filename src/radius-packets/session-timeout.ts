/**
 * The Session-Timeout a NAS is given, in an Access-Accept or a CoA-Request: the seconds until
 * `expiresAt` (rounded up, at least 1), never more than `maxSeconds`; `maxSeconds` without one.
 */
export function sessionTimeout(expiresAt: Date | null, now: Date, maxSeconds: number): number {
  if (expiresAt === null) return maxSeconds;
  const left = Math.ceil((expiresAt.getTime() - now.getTime()) / 1000);
  return Math.max(1, Math.min(maxSeconds, left));
}
