import type { SessionEntity } from '../../src/sessions/entities/session.entity.js';
import type { UnauthJobSession } from '../../src/unauth-jobs/entities/unauth-job.entity.js';
import type { TestApp } from './test-app.js';

/** An unauth_jobs row as a test reads it straight from the table. */
export interface JobRow {
  id: string;
  user_id: string;
  username: string | null;
  reason: string;
  status: string;
  attempts: number;
  sessions: UnauthJobSession[];
}

export async function jobsOf(testApp: TestApp, userId: string): Promise<JobRow[]> {
  const rows: Array<Record<string, unknown> & { sessions: string }> = await testApp.dataSource.query(
    'SELECT id, user_id, username, reason, status, attempts, sessions FROM unauth_jobs WHERE user_id = ? ORDER BY created_at, id',
    [userId],
  );
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts), sessions: JSON.parse(row.sessions) }) as JobRow);
}

export function sessionRows(
  testApp: TestApp,
  userId: string,
): Promise<Array<{ id: string; status: string; ended_at: unknown }>> {
  return testApp.dataSource.query('SELECT id, status, ended_at FROM sessions WHERE user_id = ? ORDER BY id', [userId]);
}

/** What an unauth job records of a session. */
export function asJobSession(session: SessionEntity): UnauthJobSession {
  return {
    id: session.id,
    venueId: session.venueId,
    macAddress: session.macAddress,
    ipAddress: session.ipAddress,
    nasId: session.nasId,
    nasClientId: session.nasClientId,
    acctSessionId: session.acctSessionId,
    userName: session.userName,
    callingStationId: session.callingStationId,
    nasIpAddress: session.nasIpAddress,
    nasSourceIp: session.nasSourceIp,
  };
}

export const byId = <T extends { id: string }>(items: T[]): T[] => [...items].sort((a, b) => (a.id < b.id ? -1 : 1));
