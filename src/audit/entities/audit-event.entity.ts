import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';
import type { AuditAction, AuditActorType, AuditEventRecord, AuditOutcome, AuditTargetType } from '../audit.rules.js';

/**
 * One change made to the service, and who made it (audit.rules.ts builds it). Append-only: rows are
 * inserted in the transaction of the change they record and deleted only by the retention sweep.
 * No foreign keys: an event outlives its actor and its target. One index per filter of `hotspot
 * audit list` (actor id, actor name, target, action), each with the time, and the time alone for the
 * sweep and the unfiltered list.
 */
@Entity('audit_events')
@Index('idx_audit_events_actor_id', ['actorId', 'occurredAt'])
@Index('idx_audit_events_actor_name', ['actorName', 'occurredAt'])
@Index('idx_audit_events_target', ['targetId', 'occurredAt'])
@Index('idx_audit_events_action', ['action', 'occurredAt'])
export class AuditEventEntity implements AuditEventRecord {
  @IdColumn()
  id!: string;

  @Index('idx_audit_events_occurred_at')
  @DateTimeColumn('occurred_at')
  occurredAt!: Date;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType!: AuditActorType;

  @Column({ name: 'actor_id', type: 'varchar', length: 36, nullable: true })
  actorId!: string | null;

  /** The token's name or the operator's email at the time. */
  @Column({ name: 'actor_name', type: 'varchar', length: 254, nullable: true })
  actorName!: string | null;

  @Column({ type: 'varchar', length: 32 })
  action!: AuditAction;

  /** user.update and the status moves of a PUT: the names of the fields it changed, sorted. */
  @Column({ name: 'changed_fields', type: 'simple-json', nullable: true })
  changedFields!: string[] | null;

  @Column({ name: 'target_type', type: 'varchar', length: 16 })
  targetType!: AuditTargetType;

  @Column({ name: 'target_id', type: 'varchar', length: 64, nullable: true })
  targetId!: string | null;

  /** The target's venues, sorted; null when it has none (a token, an operator). */
  @Column({ name: 'venue_ids', type: 'simple-json', nullable: true })
  venueIds!: string[] | null;

  @Column({ name: 'client_address', type: 'varchar', length: 45, nullable: true })
  clientAddress!: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  outcome!: AuditOutcome;
}
