import { Injectable } from '@nestjs/common';
import type { EntityManager, FindOptionsWhere } from 'typeorm';
import { newId } from '../common/ids.js';
import { DatabaseService } from '../database/database.service.js';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import {
  UnauthJobEntity,
  type UnauthJobSession,
  type UnauthJobStatus,
  type UnauthReason,
} from './entities/unauth-job.entity.js';

export interface UnauthJobRequest {
  userId: string;
  username: string | null;
  reason: UnauthReason;
  sessions: readonly SessionEntity[];
}

@Injectable()
export class UnauthJobsService {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Writes a pending job through the caller's transaction (an outbox row): it commits or rolls back
   * with the change that caused it.
   */
  async enqueue(em: EntityManager, request: UnauthJobRequest, now: Date): Promise<UnauthJobEntity> {
    const job = new UnauthJobEntity();
    job.id = newId();
    job.userId = request.userId;
    job.username = request.username;
    job.reason = request.reason;
    job.sessions = request.sessions.map(toJobSession);
    job.status = 'pending';
    job.attempts = 0;
    job.nextAttemptAt = now;
    job.leaseExpiresAt = null;
    job.lastError = null;
    job.createdAt = now;
    job.updatedAt = now;
    await em.insert(UnauthJobEntity, job);
    return job;
  }

  list(filter: { userId?: string; status?: UnauthJobStatus } = {}): Promise<UnauthJobEntity[]> {
    const where: FindOptionsWhere<UnauthJobEntity> = {};
    if (filter.userId !== undefined) where.userId = filter.userId;
    if (filter.status !== undefined) where.status = filter.status;
    return this.database.run((em) => em.find(UnauthJobEntity, { where, order: { createdAt: 'ASC', id: 'ASC' } }));
  }
}

function toJobSession(session: SessionEntity): UnauthJobSession {
  return {
    id: session.id,
    venueId: session.venueId,
    macAddress: session.macAddress,
    ipAddress: session.ipAddress,
    nasId: session.nasId,
  };
}
