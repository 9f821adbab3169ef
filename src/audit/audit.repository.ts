import { Injectable } from '@nestjs/common';
import { Brackets, LessThan, type EntityManager } from 'typeorm';
import { dateTimeParameter } from '../database/columns.js';
import { ADMIN_ONLY_TARGET_TYPES, type AuditFilter, type AuditPageQuery } from './audit.rules.js';
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

  /**
   * The console's audit log: events matching `query`, newest first, `limit` from `offset`. A viewer
   * who is not an administrator gets only rows about venues (not tokens, not operators) whose venues
   * all lie within its own: venue ids are stored as a JSON list of plain ids, so removing each of the
   * viewer's quoted ids from it must leave no quote.
   */
  page(em: EntityManager, query: AuditPageQuery): Promise<AuditEventEntity[]> {
    const select = em
      .getRepository(AuditEventEntity)
      .createQueryBuilder('event')
      .orderBy('event.occurredAt', 'DESC')
      .addOrderBy('event.id', 'DESC')
      .offset(query.offset)
      .limit(query.limit);
    if (query.actorType !== undefined) select.andWhere('event.actorType = :actorType', { actorType: query.actorType });
    const { actor } = query;
    if (actor !== undefined) {
      select.andWhere(
        new Brackets((match) =>
          match.where('event.actorId = :actor', { actor }).orWhere('event.actorName = :actor', { actor }),
        ),
      );
    }
    if (query.action !== undefined) select.andWhere('event.action = :action', { action: query.action });
    if (query.targetType !== undefined) {
      select.andWhere('event.targetType = :targetType', { targetType: query.targetType });
    }
    if (query.targetId !== undefined) select.andWhere('event.targetId = :targetId', { targetId: query.targetId });
    if (query.from !== undefined) {
      select.andWhere('event.occurredAt >= :from', { from: dateTimeParameter(query.from) });
    }
    if (query.to !== undefined) select.andWhere('event.occurredAt < :to', { to: dateTimeParameter(query.to) });
    const { viewer } = query;
    if (!viewer.admin) {
      select
        .andWhere('event.targetType NOT IN (:...adminOnly)', { adminOnly: [...ADMIN_ONLY_TARGET_TYPES] })
        .andWhere('event.venueIds IS NOT NULL')
        .andWhere("event.venueIds <> '[]'");
      if (viewer.venueIds !== null) {
        let remainder = 'event.venueIds';
        viewer.venueIds.forEach((venueId, index) => {
          remainder = `REPLACE(${remainder}, :scopeVenue${index}, '')`;
          select.setParameter(`scopeVenue${index}`, JSON.stringify(venueId));
        });
        select.andWhere(`${remainder} NOT LIKE '%"%'`);
      }
    }
    return select.getMany();
  }

  /** Deletes events recorded before `before`; returns how many. */
  async deleteOlderThan(em: EntityManager, before: Date): Promise<number> {
    const result = await em.delete(AuditEventEntity, { occurredAt: LessThan(before) });
    return result.affected ?? 0;
  }
}
