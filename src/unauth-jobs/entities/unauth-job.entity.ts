import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, ID_LENGTH } from '../../database/columns.js';
import type { Deliveries } from '../delivery.js';
import type { NotSentReason } from '../job-report.js';

/**
 * `venue-removed`: a PUT took venues from the user; its sessions in those venues ended.
 * `enforcement`: accounting reported a session of a user who may not have one (blocked, expired,
 * deleted, or not in the NAS's venue).
 * `coa`: not an unauth but a change of the user's expiresAt, sent as a CoA-Request with the new Session-Timeout.
 * `operator`: a console operator disconnected one session (Online now).
 * `password-reset`: a password reset asked to end the user's sessions (`endSessions`).
 * `quota`: the user used up a data quota or time allowance of its plan (the usage sweep).
 */
export const UNAUTH_REASONS = [
  'blocked',
  'expired',
  'deleted',
  'expiry',
  'venue-removed',
  'enforcement',
  'coa',
  'operator',
  'password-reset',
  'quota',
] as const;
export type UnauthReason = (typeof UNAUTH_REASONS)[number];

export const UNAUTH_JOB_STATUSES = ['pending', 'processing', 'done', 'failed'] as const;
export type UnauthJobStatus = (typeof UNAUTH_JOB_STATUSES)[number];

/** A copy of an ended session, so the job stays meaningful after the user and its sessions are gone. */
export interface UnauthJobSession {
  id: string;
  venueId: string;
  macAddress: string;
  ipAddress: string | null;
  nasId: string | null;
  // What RFC 5176 delivery needs, copied from an accounting session (absent on jobs written before,
  // null for sessions the CLI started).
  /** The registered NAS (nas_clients.id). */
  nasClientId?: string | null;
  acctSessionId?: string | null;
  /** The User-Name the NAS reported for the session (absent on jobs written before it was kept). */
  userName?: string | null;
  callingStationId?: string | null;
  nasIpAddress?: string | null;
  nasSourceIp?: string | null;
}

/** An outbox row: written in the same transaction as the change that ends the user's sessions. */
@Entity('unauth_jobs')
@Index('idx_unauth_jobs_due', ['status', 'nextAttemptAt'])
export class UnauthJobEntity {
  @IdColumn()
  id!: string;

  /** No foreign key: a job outlives the user it is about. */
  @Index('idx_unauth_jobs_user')
  @Column({ name: 'user_id', type: 'varchar', length: ID_LENGTH })
  userId!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  username!: string | null;

  @Column({ type: 'varchar', length: 16 })
  reason!: UnauthReason;

  @Column({ type: 'simple-json' })
  sessions!: UnauthJobSession[];

  @Column({ type: 'varchar', length: 16 })
  status!: UnauthJobStatus;

  /**
   * For a done job that left sessions unsent (job-report.ts, notSentOf): why; null otherwise. Written
   * with the done status, so that the jobs can be counted and listed by it in SQL.
   */
  @Column({ name: 'not_sent_reason', type: 'varchar', length: 24, nullable: true })
  notSentReason!: NotSentReason | null;

  /** Each dispatcher's delivery, and per session the outcome of the RADIUS requests; null before the first attempt. */
  @Column({ type: 'simple-json', nullable: true })
  deliveries!: Deliveries | null;

  /** For a `coa` job: the user's new expiresAt (null: none), from which the Session-Timeout is computed when sent. */
  @DateTimeColumn('expires_at', { nullable: true })
  expiresAt!: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @DateTimeColumn('next_attempt_at')
  nextAttemptAt!: Date;

  /** While a worker holds the job, the time its claim runs out. */
  @DateTimeColumn('lease_expires_at', { nullable: true })
  leaseExpiresAt!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('updated_at')
  updatedAt!: Date;
}
