import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditRepository } from './audit.repository.js';
import {
  auditRecord,
  type AuditEventInput,
  type AuditFilter,
  type AuditPageQuery,
  auditRowVisible,
} from './audit.rules.js';
import { AuditEventEntity } from './entities/audit-event.entity.js';

/** The audit trail: who changed what, written with the change. */
@Injectable()
export class AuditService {
  constructor(
    private readonly database: DatabaseService,
    private readonly events: AuditRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Records `event` through the caller's transaction (`em`): it commits with the change it records,
   * and rolls back with it. Call it once per change, after the change's own writes succeeded.
   */
  async record(em: EntityManager, event: AuditEventInput): Promise<AuditEventEntity> {
    const row = Object.assign(new AuditEventEntity(), auditRecord(event, newId(), this.clock.now()));
    await this.events.insert(em, row);
    return row;
  }

  /** Events matching `filter`, newest first. */
  list(filter: AuditFilter): Promise<AuditEventEntity[]> {
    return this.database.run((em) => this.events.list(em, filter));
  }

  /** One page of the console's audit log (see AuditRepository.page); rows the viewer may not see never pass. */
  async page(query: AuditPageQuery): Promise<AuditEventEntity[]> {
    const rows = await this.database.run((em) => this.events.page(em, query));
    return rows.filter((row) => auditRowVisible(row, query.viewer));
  }

  /** Deletes events recorded before `before`; returns how many. */
  deleteOlderThan(before: Date): Promise<number> {
    return this.database.transaction((em) => this.events.deleteOlderThan(em, before));
  }
}
