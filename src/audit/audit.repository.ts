import { Injectable } from '@nestjs/common';
import { Brackets, LessThan, type EntityManager } from 'typeorm';
import { dateTimeParameter } from '../database/columns.js';
import type { AuditFilter } from './audit.rules.js';
import { AuditEventEntity } from './entities/audit-event.entity.js';

/** The SQL of the audit trail; every method runs on the caller's EntityManager. */
@Injectable()
export class AuditRepository {
  async insert(em: EntityManager, event: AuditEventEntity): Promise<void> {
    await em.insert(AuditEventEntity, event);
  }

  /**
   * Events matching `filter`, newest first. The actor matches its id or its name, or `cli` and
   * `system` their actor type (they have neither).
   */
  list(em: EntityManager, filter: AuditFilter): Promise<AuditEventEntity[]> {
    const query = em
      .getRepository(AuditEventEntity)
      .createQueryBuilder('event')
      .orderBy('event.occurredAt', 'DESC')
      .addOrderBy('event.id', 'DESC')
      .limit(filter.limit);
    const { actor } = filter;
    if (actor !== undefined) {
      query.andWhere(
        new Brackets((match) =>
          match
            .where('event.actorId = :actor', { actor })
            .orWhere('event.actorName = :actor', { actor })
            .orWhere('(event.actorType = :actor AND event.actorId IS NULL)', { actor }),
        ),
      );
    }
    if (filter.targetId !== undefined) query.andWhere('event.targetId = :targetId', { targetId: filter.targetId });
    if (filter.action !== undefined) query.andWhere('event.action = :action', { action: filter.action });
    if (filter.since !== undefined) {
      query.andWhere('event.occurredAt >= :since', { since: dateTimeParameter(filter.since) });
    }
    return query.getMany();
  }

  /** Deletes events recorded before `before`; returns how many. */
  async deleteOlderThan(em: EntityManager, before: Date): Promise<number> {
    const result = await em.delete(AuditEventEntity, { occurredAt: LessThan(before) });
    return result.affected ?? 0;
  }
}
