import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { VenueEntity } from './entities/venue.entity.js';
import type { VenueFields } from './venue-rules.js';

/** The SQL of the venue registry; every method runs on the caller's EntityManager. */
@Injectable()
export class VenuesRepository {
  findById(em: EntityManager, id: string): Promise<VenueEntity | null> {
    return em.findOneBy(VenueEntity, { id });
  }

  listById(em: EntityManager): Promise<VenueEntity[]> {
    return em.find(VenueEntity, { order: { id: 'ASC' } });
  }

  /** Of `ids`, those registered. */
  async findRegisteredIds(em: EntityManager, ids: readonly string[]): Promise<string[]> {
    const rows = await em.find(VenueEntity, { select: { id: true }, where: { id: In([...ids]) } });
    return rows.map((row) => row.id);
  }

  async insert(em: EntityManager, record: VenueEntity): Promise<void> {
    await em.insert(VenueEntity, record);
  }

  async update(em: EntityManager, id: string, fields: VenueFields, updatedAt: Date): Promise<void> {
    await em.update(VenueEntity, { id }, { ...fields, updatedAt });
  }
}
