import type { AuditAction, AuditActorType, AuditOutcome, AuditTargetType } from './audit.rules.js';
import type { AuditEventEntity } from './entities/audit-event.entity.js';

/** An audit event as the command line prints it. */
export interface AuditEventJson {
  id: string;
  occurredAt: string;
  actor: { type: AuditActorType; id: string | null; name: string | null };
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null };
  venueIds: string[] | null;
  /** The names of the fields a change set (user.update, a PUT's status move, nas.update); null for other actions. */
  changedFields: string[] | null;
  clientAddress: string | null;
  requestId: string | null;
  outcome: AuditOutcome;
}

export function toAuditEventJson(event: AuditEventEntity): AuditEventJson {
  return {
    id: event.id,
    occurredAt: event.occurredAt.toISOString(),
    actor: { type: event.actorType, id: event.actorId, name: event.actorName },
    action: event.action,
    target: { type: event.targetType, id: event.targetId },
    venueIds: event.venueIds,
    changedFields: event.changedFields,
    clientAddress: event.clientAddress,
    requestId: event.requestId,
    outcome: event.outcome,
  };
}
