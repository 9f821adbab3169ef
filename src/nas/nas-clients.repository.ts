import { Injectable } from '@nestjs/common';
import { In, MoreThan, type EntityManager } from 'typeorm';
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

  /** How many NASes have a Disconnect/CoA port (not 0): those a Disconnect-Request can reach. */
  countWithCoaPort(em: EntityManager): Promise<number> {
    return em.countBy(NasClientEntity, { coaPort: MoreThan(0) });
  }

  listOldestFirst(em: EntityManager): Promise<NasClientEntity[]> {
    return em.find(NasClientEntity, { order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async insert(em: EntityManager, record: NasClientEntity): Promise<void> {
    await em.insert(NasClientEntity, record);
  }

  async update(
    em: EntityManager,
    id: string,
    changes: Partial<Pick<NasClientEntity, 'coaPort' | 'vendor' | 'requireMessageAuthenticator' | 'acceptsCoa'>>,
  ): Promise<void> {
    await em.update(NasClientEntity, { id }, changes);
  }

  /** Every NAS's stored secret, its rows locked for the caller's transaction (MySQL; SQLite's writer lock holds). */
  listSecretsForUpdate(
    em: EntityManager,
    rowLocks: boolean,
  ): Promise<Array<Pick<NasClientEntity, 'id' | 'name' | 'storedSecret'>>> {
    const query = em.createQueryBuilder(NasClientEntity, 'n').select(['n.id', 'n.name', 'n.storedSecret']);
    if (rowLocks) query.setLock('pessimistic_write');
    return query.getMany();
  }

  async replaceSecret(em: EntityManager, id: string, storedSecret: string): Promise<void> {
    await em.update(NasClientEntity, { id }, { storedSecret });
  }

  /** Marks the NAS as not accepting CoA; true when it was marked as accepting until now. */
  async markRefusingCoa(em: EntityManager, id: string): Promise<boolean> {
    const result = await em.update(NasClientEntity, { id, acceptsCoa: true }, { acceptsCoa: false });
    return (result.affected ?? 0) > 0;
  }

  /** Of `ids`, those of NASes marked as not accepting CoA. */
  async findIdsRefusingCoa(em: EntityManager, ids: readonly string[]): Promise<string[]> {
    const rows = await em.find(NasClientEntity, {
      select: { id: true },
      where: { id: In([...ids]), acceptsCoa: false },
    });
    return rows.map((row) => row.id);
  }

  async delete(em: EntityManager, id: string): Promise<void> {
    await em.delete(NasClientEntity, { id });
  }
}
