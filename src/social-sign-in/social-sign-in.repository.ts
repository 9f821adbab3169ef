import { Injectable } from '@nestjs/common';
import { In, LessThanOrEqual, type EntityManager } from 'typeorm';
import { SocialProviderVenueEntity } from './entities/social-provider-venue.entity.js';
import { SocialProviderEntity } from './entities/social-provider.entity.js';
import { SocialSignInStateEntity } from './entities/social-sign-in-state.entity.js';

/** The fields of a provider `social-provider set` may change. */
export type ProviderFieldChanges = Partial<
  Pick<SocialProviderEntity, 'displayName' | 'clientId' | 'storedClientSecret' | 'scopes'>
>;

/** The SQL of social sign-in; every method runs on the caller's EntityManager. */
@Injectable()
export class SocialSignInRepository {
  findProviderById(em: EntityManager, id: string): Promise<SocialProviderEntity | null> {
    return em.findOneBy(SocialProviderEntity, { id });
  }

  findProviderByName(em: EntityManager, name: string): Promise<SocialProviderEntity | null> {
    return em.findOneBy(SocialProviderEntity, { name });
  }

  listProviders(em: EntityManager): Promise<SocialProviderEntity[]> {
    return em.find(SocialProviderEntity, { order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The venue rows of `providerIds`, each provider's in the operator's order. */
  listVenueRows(em: EntityManager, providerIds: readonly string[]): Promise<SocialProviderVenueEntity[]> {
    if (providerIds.length === 0) return Promise.resolve([]);
    return em.find(SocialProviderVenueEntity, {
      where: { providerId: In([...providerIds]) },
      order: { providerId: 'ASC', position: 'ASC' },
    });
  }

  /** The providers `venueId` offers, by display name. */
  listProvidersOfVenue(em: EntityManager, venueId: string): Promise<SocialProviderEntity[]> {
    return em
      .createQueryBuilder(SocialProviderEntity, 'p')
      .innerJoin(SocialProviderVenueEntity, 'v', 'v.provider_id = p.id AND v.venue_id = :venueId', { venueId })
      .orderBy('p.display_name', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .getMany();
  }

  /** Whether `venueId` offers provider `providerId`. */
  async isOffered(em: EntityManager, providerId: string, venueId: string): Promise<boolean> {
    return (await em.countBy(SocialProviderVenueEntity, { providerId, venueId })) > 0;
  }

  async insertProvider(em: EntityManager, provider: SocialProviderEntity): Promise<void> {
    await em.insert(SocialProviderEntity, provider);
  }

  async updateProvider(em: EntityManager, id: string, changes: ProviderFieldChanges): Promise<void> {
    await em.update(SocialProviderEntity, { id }, changes);
  }

  async deleteProvider(em: EntityManager, id: string): Promise<void> {
    await em.delete(SocialProviderEntity, { id });
  }

  async deleteVenues(em: EntityManager, providerId: string): Promise<void> {
    await em.delete(SocialProviderVenueEntity, { providerId });
  }

  async insertVenues(em: EntityManager, providerId: string, venueIds: readonly string[]): Promise<void> {
    if (venueIds.length === 0) return;
    await em.insert(
      SocialProviderVenueEntity,
      venueIds.map((venueId, position) => ({ providerId, venueId, position })),
    );
  }

  /** Every provider's sealed client secret, its rows locked for the caller's transaction (MySQL). */
  listSecretsForUpdate(
    em: EntityManager,
    rowLocks: boolean,
  ): Promise<Array<Pick<SocialProviderEntity, 'id' | 'name' | 'storedClientSecret'>>> {
    const query = em
      .createQueryBuilder(SocialProviderEntity, 'p')
      .select(['p.id', 'p.name', 'p.storedClientSecret'])
      .orderBy('p.id', 'ASC');
    if (rowLocks) query.setLock('pessimistic_write');
    return query.getMany();
  }

  async insertState(em: EntityManager, state: SocialSignInStateEntity): Promise<void> {
    await em.insert(SocialSignInStateEntity, state);
  }

  findState(em: EntityManager, stateHash: string): Promise<SocialSignInStateEntity | null> {
    return em.findOneBy(SocialSignInStateEntity, { stateHash });
  }

  /** Deletes the state; true when this call deleted it (a second use of a state finds it gone). */
  async deleteState(em: EntityManager, stateHash: string): Promise<boolean> {
    const result = await em.delete(SocialSignInStateEntity, { stateHash });
    return (result.affected ?? 0) > 0;
  }

  async deleteExpiredStates(em: EntityManager, now: Date): Promise<number> {
    const result = await em.delete(SocialSignInStateEntity, { expiresAt: LessThanOrEqual(now) });
    return result.affected ?? 0;
  }
}
