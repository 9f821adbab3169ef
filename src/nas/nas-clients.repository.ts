import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NasClientEntity } from './entities/nas-client.entity.js';

/** The SQL of the NAS registry; every method runs on the caller's EntityManager. */
@Injectable()
export class NasClientsRepository {
  findById(em: EntityManager, id: string): Promise<NasClientEntity | null> {
    return em.findOneBy(NasClientEntity, { id });
  }

  findByName(em: EntityManager, name: string): Promise<NasClientEntity | null> {
    return em.findOneBy(NasClientEntity, { name });
  }

  /** The NAS registered on `ipAddress` (an address or network in the registry's spelling). */
  findByAddress(em: EntityManager, ipAddress: string): Promise<NasClientEntity | null> {
    return em.findOneBy(NasClientEntity, { ipAddress });
  }

  listOldestFirst(em: EntityManager): Promise<NasClientEntity[]> {
    return em.find(NasClientEntity, { order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async insert(em: EntityManager, record: NasClientEntity): Promise<void> {
    await em.insert(NasClientEntity, record);
  }

  async delete(em: EntityManager, id: string): Promise<void> {
    await em.delete(NasClientEntity, { id });
  }
}
