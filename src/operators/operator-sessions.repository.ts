import { Injectable } from '@nestjs/common';
import { LessThan, type EntityManager } from 'typeorm';
import type { Permission } from '../auth/permissions.js';
import { readDateTime } from '../database/columns.js';
import { OperatorEntity, type OperatorStatus } from './entities/operator.entity.js';
import { OperatorSessionEntity, type SessionStage } from './entities/operator-session.entity.js';
import type { SessionWithOperator } from './session-with-operator.js';

interface SessionRow {
  id_hash: string;
  stage: SessionStage;
  session_rights_version: number | string;
  pending_totp_secret: string | null;
  created_at: Date | string;
  last_seen_at: Date | string;
  expires_at: Date | string;
  operator_id: string;
  email: string;
  name: string;
  status: OperatorStatus;
  operator_rights_version: number | string;
  admin: number | boolean | string;
  must_change_password: number | boolean | string;
  totp_enrolled_at: Date | string | null;
  permissions: string;
  venue_ids: string | null;
  time_zone: string | null;
}

const flag = (value: number | boolean | string): boolean => value === true || Number(value) === 1;

/** The SQL of console sessions; every method runs on the caller's EntityManager. */
@Injectable()
export class OperatorSessionsRepository {
  async insert(em: EntityManager, session: OperatorSessionEntity): Promise<void> {
    await em.insert(OperatorSessionEntity, session);
  }

  /** The session and its operator by the primary key: the one read of every console request. */
  async findWithOperator(em: EntityManager, idHash: string): Promise<SessionWithOperator | null> {
    const row = await em
      .createQueryBuilder(OperatorSessionEntity, 's')
      .innerJoin(OperatorEntity, 'o', 'o.id = s.operator_id')
      .select([
        's.id_hash AS id_hash',
        's.stage AS stage',
        's.rights_version AS session_rights_version',
        's.pending_totp_secret AS pending_totp_secret',
        's.created_at AS created_at',
        's.last_seen_at AS last_seen_at',
        's.expires_at AS expires_at',
        'o.id AS operator_id',
        'o.email AS email',
        'o.name AS name',
        'o.status AS status',
        'o.rights_version AS operator_rights_version',
        'o.admin AS admin',
        'o.must_change_password AS must_change_password',
        'o.totp_enrolled_at AS totp_enrolled_at',
        'o.permissions AS permissions',
        'o.venue_ids AS venue_ids',
        'o.time_zone AS time_zone',
      ])
      .where('s.id_hash = :idHash', { idHash })
      .getRawOne<SessionRow>();
    if (row === undefined) return null;
    return {
      idHash: row.id_hash,
      stage: row.stage,
      rightsVersion: Number(row.session_rights_version),
      pendingTotpSecret: row.pending_totp_secret,
      createdAt: readDateTime(row.created_at),
      lastSeenAt: readDateTime(row.last_seen_at),
      expiresAt: readDateTime(row.expires_at),
      operator: {
        id: row.operator_id,
        email: row.email,
        name: row.name,
        status: row.status,
        rightsVersion: Number(row.operator_rights_version),
        admin: flag(row.admin),
        mustChangePassword: flag(row.must_change_password),
        totpEnrolled: row.totp_enrolled_at !== null,
        permissions: JSON.parse(row.permissions) as Permission[],
        venueIds: row.venue_ids === null ? null : (JSON.parse(row.venue_ids) as string[]),
        timeZone: row.time_zone,
      },
    };
  }

  async touch(em: EntityManager, idHash: string, at: Date): Promise<void> {
    await em.update(OperatorSessionEntity, { idHash }, { lastSeenAt: at });
  }

  async setPendingTotpSecret(em: EntityManager, idHash: string, sealed: string): Promise<void> {
    await em.update(OperatorSessionEntity, { idHash }, { pendingTotpSecret: sealed });
  }

  /** The challenge of a passkey ceremony this session began; a new one replaces any earlier. */
  async setWebauthnChallenge(em: EntityManager, idHash: string, challenge: string): Promise<void> {
    await em.update(OperatorSessionEntity, { idHash }, { webauthnChallenge: challenge });
  }

  /** The session's passkey challenge, cleared as it is read: of two uses of one, one gets it. Null when none. */
  async takeWebauthnChallenge(em: EntityManager, idHash: string): Promise<string | null> {
    const challenge = await this.webauthnChallenge(em, idHash);
    if (challenge === null) return null;
    return (await this.clearWebauthnChallenge(em, idHash, challenge)) ? challenge : null;
  }

  /** The session's passkey challenge as it is, or null. */
  async webauthnChallenge(em: EntityManager, idHash: string): Promise<string | null> {
    const row = await em.findOne(OperatorSessionEntity, {
      select: { idHash: true, webauthnChallenge: true },
      where: { idHash },
    });
    return row?.webauthnChallenge ?? null;
  }

  /** Clears the session's passkey challenge if it is still `challenge`; false when another use took it. */
  async clearWebauthnChallenge(em: EntityManager, idHash: string, challenge: string): Promise<boolean> {
    const taken = await em.update(
      OperatorSessionEntity,
      { idHash, webauthnChallenge: challenge },
      { webauthnChallenge: null },
    );
    return (taken.affected ?? 0) === 1;
  }

  /** Deletes the session; true when it was there (so two uses of one session cannot both move it on). */
  async delete(em: EntityManager, idHash: string): Promise<boolean> {
    const result = await em.delete(OperatorSessionEntity, { idHash });
    return (result.affected ?? 0) === 1;
  }

  async deleteAllOfOperator(em: EntityManager, operatorId: string): Promise<void> {
    await em.delete(OperatorSessionEntity, { operatorId });
  }

  /** Every session past its expiry, whoever's: tidied at each sign-in, so abandoned sessions do not pile up. */
  async deleteExpired(em: EntityManager, now: Date): Promise<void> {
    await em.delete(OperatorSessionEntity, { expiresAt: LessThan(now) });
  }

  /** The operator's sessions unused since `idleBefore`. */
  async deleteIdleOfOperator(em: EntityManager, operatorId: string, idleBefore: Date): Promise<void> {
    await em.delete(OperatorSessionEntity, { operatorId, lastSeenAt: LessThan(idleBefore) });
  }
}
