import type { SessionEntity } from './entities/session.entity.js';

/**
 * Whether a session is stale: active, reported by RADIUS accounting, and with no accounting update
 * for longer than `staleAfterMs` (the window after which the stale sweep ends it). Sessions the CLI
 * started have no accounting time and are never stale, as the sweep leaves them alone.
 */
export function isStale(
  session: Pick<SessionEntity, 'status' | 'lastAccountingAt'>,
  now: Date,
  staleAfterMs: number,
): boolean {
  if (session.status !== 'active' || session.lastAccountingAt === null) return false;
  return session.lastAccountingAt.getTime() < now.getTime() - staleAfterMs;
}
