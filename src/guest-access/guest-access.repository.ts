import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { dateTimeParameter } from '../database/columns.js';
import { GuestIdentityEntity } from './entities/guest-identity.entity.js';
import { PortalPassEntity } from './entities/portal-pass.entity.js';
import { TermsAcceptanceEntity } from './entities/terms-acceptance.entity.js';
import { VenuePortalEntity } from './entities/venue-portal.entity.js';
import type { GuestIdentityKey } from './guest-access.rules.js';

/** The SQL of the guest portal's tables; every method runs on the caller's EntityManager. */
@Injectable()
export class GuestAccessRepository {
  findPortal(em: EntityManager, venueId: string): Promise<VenuePortalEntity | null> {
    return em.findOneBy(VenuePortalEntity, { venueId });
  }

  findPortals(em: EntityManager): Promise<VenuePortalEntity[]> {
    return em.find(VenuePortalEntity, { order: { venueId: 'ASC' } });
  }

  /** The portal locked for the caller's transaction (MySQL; SQLite's transaction holds the write lock). */
  async lockPortal(em: EntityManager, venueId: string, rowLocks: boolean): Promise<VenuePortalEntity | null> {
    const query = em.createQueryBuilder(VenuePortalEntity, 'p').where('p.venueId = :venueId', { venueId });
    if (rowLocks) query.setLock('pessimistic_write');
    return query.getOne();
  }

  async insertPortal(em: EntityManager, portal: VenuePortalEntity): Promise<void> {
    await em.insert(VenuePortalEntity, portal);
  }

  async updatePortal(em: EntityManager, venueId: string, changes: Partial<VenuePortalEntity>): Promise<void> {
    await em.update(VenuePortalEntity, { venueId }, changes);
  }

  /** Every sealed faskey, locked (MySQL) for a rotation in the caller's transaction. */
  async listFaskeysForUpdate(
    em: EntityManager,
    rowLocks: boolean,
  ): Promise<Array<{ venueId: string; faskeySealed: string }>> {
    const rows = await em.query<Array<{ venue_id: string; faskey_sealed: string }>>(
      `SELECT venue_id, faskey_sealed FROM venue_portals WHERE faskey_sealed IS NOT NULL ORDER BY venue_id${
        rowLocks ? ' FOR UPDATE' : ''
      }`,
    );
    return rows.map((row) => ({ venueId: row.venue_id, faskeySealed: row.faskey_sealed }));
  }

  async replaceFaskey(em: EntityManager, venueId: string, sealed: string): Promise<void> {
    await em.query('UPDATE venue_portals SET faskey_sealed = ? WHERE venue_id = ?', [sealed, venueId]);
  }

  /** The identity, locked (MySQL) so two admissions of it at once take turns; null when it is new. */
  async lockIdentity(
    em: EntityManager,
    venueId: string,
    key: GuestIdentityKey,
    rowLocks: boolean,
  ): Promise<GuestIdentityEntity | null> {
    const query = em
      .createQueryBuilder(GuestIdentityEntity, 'g')
      .where('g.venueId = :venueId AND g.kind = :kind AND g.issuer = :issuer AND g.subject = :subject', {
        venueId,
        kind: key.kind,
        issuer: key.issuer,
        subject: key.subject,
      });
    if (rowLocks) query.setLock('pessimistic_write');
    return query.getOne();
  }

  async insertIdentity(em: EntityManager, identity: GuestIdentityEntity): Promise<void> {
    await em.insert(GuestIdentityEntity, identity);
  }

  /** The identity now names `userId` (its earlier user expired or is gone), used now. */
  async updateIdentity(
    em: EntityManager,
    id: string,
    changes: Pick<GuestIdentityEntity, 'userId' | 'email' | 'lastUsedAt'>,
  ): Promise<void> {
    await em.update(GuestIdentityEntity, { id }, changes);
  }

  async insertAcceptance(em: EntityManager, acceptance: TermsAcceptanceEntity): Promise<void> {
    await em.insert(TermsAcceptanceEntity, acceptance);
  }

  /** The acceptances of a venue's terms, newest first (the console, records). */
  findAcceptances(em: EntityManager, venueId: string, limit: number): Promise<TermsAcceptanceEntity[]> {
    return em.find(TermsAcceptanceEntity, { where: { venueId }, order: { acceptedAt: 'DESC' }, take: limit });
  }

  async insertPass(em: EntityManager, pass: PortalPassEntity): Promise<void> {
    await em.insert(PortalPassEntity, pass);
  }

  /** Whether `userId` has a pass with this hash that has not expired at `now`. One indexed read. */
  async hasLivePass(em: EntityManager, userId: string, hash: string, now: Date): Promise<boolean> {
    const rows = await em.query<unknown[]>(
      'SELECT 1 FROM portal_passes WHERE pass_hash = ? AND user_id = ? AND expires_at > ?',
      [hash, userId, dateTimeParameter(now)],
    );
    return rows.length > 0;
  }

  /** Ids of passes expired before `before`, oldest first, at most `limit`. */
  async findExpiredPassIds(em: EntityManager, before: Date, limit: number): Promise<string[]> {
    const rows = await em.query<Array<{ id: string }>>(
      `SELECT id FROM portal_passes WHERE expires_at < ? ORDER BY expires_at LIMIT ${Math.trunc(limit)}`,
      [dateTimeParameter(before)],
    );
    return rows.map((row) => row.id);
  }

  /** Passes by primary key (no gap locks: only rows that exist). */
  async deletePasses(em: EntityManager, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await em.query(`DELETE FROM portal_passes WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]);
  }
}
