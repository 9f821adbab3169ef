import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { DateTimeColumn, ID_LENGTH, IdColumn, ReferenceColumn } from '../../database/columns.js';

/** `stopped`: ended by the network side; `expired`: ended by this service (block, expire, delete). */
export const SESSION_STATUSES = ['active', 'stopped', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * A 64-bit counter: kept as a decimal string, since it may exceed Number.MAX_SAFE_INTEGER and mysql2
 * returns BIGINT as a string anyway (SQLite returns a number).
 */
const BIGINT_AS_STRING = {
  to: (value: string | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : String(value)),
};

@Entity('sessions')
@Index('idx_sessions_user_status', ['userId', 'status'])
@Index('uq_sessions_nas_accounting_id', ['nasClientId', 'accountingUniqueId'], { unique: true })
@Index('idx_sessions_nas_status', ['nasClientId', 'status'])
@Index('idx_sessions_status_last_accounting', ['status', 'lastAccountingAt'])
@Index('idx_sessions_venue_status_started', ['venueId', 'status', 'startedAt'])
@Index('idx_sessions_nas_last_accounting', ['nasClientId', 'lastAccountingAt'])
@Index('idx_sessions_disconnect_job', ['disconnectJobId'])
@Index('idx_sessions_usage_pending', ['usagePending'])
export class SessionEntity {
  @IdColumn()
  id!: string;

  @ReferenceColumn('user_id')
  userId!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @Column({ name: 'mac_address', type: 'varchar', length: 17 })
  macAddress!: string;

  @Column({ name: 'ip_address', type: 'varchar', length: 45, nullable: true })
  ipAddress!: string | null;

  @Column({ name: 'nas_id', type: 'varchar', length: 128, nullable: true })
  nasId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: SessionStatus;

  @DateTimeColumn('started_at')
  startedAt!: Date;

  @DateTimeColumn('ended_at', { nullable: true })
  endedAt!: Date | null;

  /**
   * When the NAS said the session is over (its Accounting-Stop, or an Accounting-On/Off of the
   * NAS); null while it has not. A Disconnect still owed for the session is settled by it.
   */
  @DateTimeColumn('nas_stopped_at', { nullable: true })
  nasStoppedAt!: Date | null;

  /**
   * While the session is ended here but its NAS has not confirmed it (no ACK or NAK 503, no Stop, no
   * Accounting-On/Off), the unauth job that asks the NAS to end it; null otherwise. Only sessions a
   * NAS reported get one: the console's Online now keeps them as "disconnecting, not confirmed",
   * though they are ended (`expired`, with `endedAt`) for everything else, the v1 API included.
   */
  @Column({ name: 'disconnect_job_id', type: 'varchar', length: ID_LENGTH, nullable: true })
  disconnectJobId!: string | null;

  // RADIUS accounting. Every column below is null for sessions the CLI starts.

  /** The registered NAS (nas_clients.id) that reported the session; `nasId` then holds its name. */
  @Column({ name: 'nas_client_id', type: 'varchar', length: 36, nullable: true })
  nasClientId!: string | null;

  /** Acct-Unique-Session-Id: the same for Start, Interim-Update and Stop; unique per NAS. */
  @Column({ name: 'accounting_unique_id', type: 'varchar', length: 64, nullable: true })
  accountingUniqueId!: string | null;

  @Column({ name: 'acct_session_id', type: 'varchar', length: 64, nullable: true })
  acctSessionId!: string | null;

  /** The User-Name the NAS reported for the session, which its Disconnect and CoA-Requests must carry. */
  @Column({ name: 'user_name', type: 'varchar', length: 253, nullable: true })
  userName!: string | null;

  @Column({ name: 'called_station_id', type: 'varchar', length: 128, nullable: true })
  calledStationId!: string | null;

  @Column({ name: 'calling_station_id', type: 'varchar', length: 128, nullable: true })
  callingStationId!: string | null;

  @Column({ name: 'input_octets', type: 'bigint', nullable: true, transformer: BIGINT_AS_STRING })
  inputOctets!: string | null;

  @Column({ name: 'output_octets', type: 'bigint', nullable: true, transformer: BIGINT_AS_STRING })
  outputOctets!: string | null;

  /** Acct-Session-Time, in seconds. */
  @Column({ name: 'session_time', type: 'int', nullable: true })
  sessionTime!: number | null;

  /**
   * Whether the counters above rose since the usage fold last added them to the user's usage: every
   * accounting write sets it (FreeRADIUS's SQL statement too), the fold clears it.
   */
  @Column({ name: 'usage_pending', type: 'boolean', default: false })
  usagePending!: boolean;

  /** The counters as the usage fold last added them to the user's usage: the next fold adds their rise. */
  @Column({ name: 'usage_input_octets', type: 'bigint', default: 0, transformer: BIGINT_AS_STRING })
  usageInputOctets!: string;

  @Column({ name: 'usage_output_octets', type: 'bigint', default: 0, transformer: BIGINT_AS_STRING })
  usageOutputOctets!: string;

  @Column({ name: 'usage_session_time', type: 'int', default: 0 })
  usageSessionTime!: number;

  /** When the last accounting packet for this session arrived; the stale sweep ends sessions silent too long. */
  @DateTimeColumn('last_accounting_at', { nullable: true })
  lastAccountingAt!: Date | null;

  /** NAS-IP-Address of the accounting Start: a Disconnect/CoA-Request repeats it to identify the NAS. */
  @Column({ name: 'nas_ip_address', type: 'varchar', length: 45, nullable: true })
  nasIpAddress!: string | null;

  /**
   * The source address of the accounting packets (as FreeRADIUS saw it): where Disconnect/CoA-Requests
   * go when the NAS is registered as a network rather than one address.
   */
  @Column({ name: 'nas_source_ip', type: 'varchar', length: 45, nullable: true })
  nasSourceIp!: string | null;

  /** Acct-Terminate-Cause of the Stop, or why the service ended it (`enforcement`, `stale`, `NAS-Reboot`…). */
  @Column({ name: 'terminate_cause', type: 'varchar', length: 32, nullable: true })
  terminateCause!: string | null;

  /**
   * The foreign key to the user. The target is named by string, since sessions/ sits below
   * hotspot-users/; the property exists for the mapping alone and is never loaded.
   */
  @ManyToOne('HotspotUserEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_sessions_user' })
  user?: object;
}
