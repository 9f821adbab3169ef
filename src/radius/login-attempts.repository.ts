import { Injectable } from '@nestjs/common';
import { Brackets, LessThan, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { dateTimeParameter } from '../database/columns.js';
import { LIKE_ESCAPE, type PrefixRange } from '../hotspot-users/user-search.rules.js';
import { LoginAttemptEntity, type LoginOutcome } from './entities/login-attempt.entity.js';

/** Which attempts to list: each given field narrows the list; at most one of userId, username and macAddress. */
export interface LoginAttemptFilter {
  venueId?: string;
  userId?: string;
  /** Exactly as the NAS sent it. */
  username?: string;
  /** Canonical (AA:BB:CC:DD:EE:FF). */
  macAddress?: string;
  /** Only attempts recorded at or after this instant. */
  since?: Date;
  limit: number;
}

/**
 * Whose attempts an operator sees: those of `venueIds` (null: every venue), and those of no venue
 * (an unknown NAS's) when `withoutVenue`.
 */
export interface LoginAttemptScope {
  venueIds: readonly string[] | null;
  withoutVenue: boolean;
}

/** The console's list: a scope, then each given field narrows it; newest first, a window of it. */
export interface LoginAttemptQuery {
  scope: LoginAttemptScope;
  /** Only these outcomes (`reject` and `unknown` together are the rejections). */
  outcomes: readonly LoginOutcome[];
  /** The start of the username, case and accents ignored (usernameSearchRange). */
  usernameStart?: PrefixRange;
  /** Canonical (AA:BB:CC:DD:EE:FF). */
  macAddress?: string;
  offset: number;
  limit: number;
}

/** The SQL of login attempts; every method runs on the caller's EntityManager. */
@Injectable()
export class LoginAttemptsRepository {
  /** Several attempts in one statement. */
  async insertMany(em: EntityManager, attempts: readonly LoginAttemptEntity[]): Promise<void> {
    await em.insert(LoginAttemptEntity, [...attempts]);
  }

  /** Attempts matching `filter`, newest first (an index per filter: venue, user, username, MAC, with created_at). */
  list(em: EntityManager, filter: LoginAttemptFilter): Promise<LoginAttemptEntity[]> {
    const query = em
      .getRepository(LoginAttemptEntity)
      .createQueryBuilder('attempt')
      .orderBy('attempt.createdAt', 'DESC')
      .addOrderBy('attempt.id', 'DESC')
      .limit(filter.limit);
    if (filter.venueId !== undefined) query.andWhere('attempt.venueId = :venueId', { venueId: filter.venueId });
    if (filter.userId !== undefined) query.andWhere('attempt.userId = :userId', { userId: filter.userId });
    if (filter.username !== undefined) query.andWhere('attempt.username = :username', { username: filter.username });
    if (filter.macAddress !== undefined) {
      query.andWhere('attempt.macAddress = :macAddress', { macAddress: filter.macAddress });
    }
    if (filter.since !== undefined)
      query.andWhere('attempt.createdAt >= :since', { since: dateTimeParameter(filter.since) });
    return query.getMany();
  }

  /** Deletes attempts recorded before `before`; returns how many. */
  async deleteOlderThan(em: EntityManager, before: Date): Promise<number> {
    const result = await em.delete(LoginAttemptEntity, { createdAt: LessThan(before) });
    return result.affected ?? 0;
  }

  /**
   * A window of the attempts `query` selects, newest first: by the start of the username
   * (idx_login_attempts_search_username) or MAC on their index, else
   * by venue (one venue: idx_login_attempts_venue) or by time (idx_login_attempts_created_at).
   */
  page(em: EntityManager, query: LoginAttemptQuery): Promise<LoginAttemptEntity[]> {
    const builder = em
      .getRepository(LoginAttemptEntity)
      .createQueryBuilder('attempt')
      .where('attempt.outcome IN (:...outcomes)', { outcomes: [...query.outcomes] })
      .orderBy('attempt.createdAt', 'DESC')
      .addOrderBy('attempt.id', 'DESC')
      .offset(query.offset)
      .limit(query.limit);
    if (query.usernameStart !== undefined) {
      const { from, to, like } = query.usernameStart;
      builder.andWhere('attempt.searchUsername >= :from', { from });
      if (to !== null) builder.andWhere('attempt.searchUsername < :to', { to });
      if (like !== null) builder.andWhere(`attempt.searchUsername LIKE :like ESCAPE '${LIKE_ESCAPE}'`, { like });
    }
    if (query.macAddress !== undefined) {
      builder.andWhere('attempt.macAddress = :macAddress', { macAddress: query.macAddress });
    }
    return inScope(builder, query.scope).getMany();
  }

  /** Attempts in scope since `since`, by outcome: one range of idx_login_attempts_venue or _created_at. */
  async outcomesSince(em: EntityManager, scope: LoginAttemptScope, since: Date): Promise<Record<LoginOutcome, number>> {
    const counts: Record<LoginOutcome, number> = { accept: 0, reject: 0, unknown: 0 };
    const builder = em
      .getRepository(LoginAttemptEntity)
      .createQueryBuilder('attempt')
      .select('attempt.outcome', 'outcome')
      .addSelect('COUNT(*)', 'n')
      .where('attempt.createdAt >= :since', { since: dateTimeParameter(since) })
      .groupBy('attempt.outcome');
    const rows = await inScope(builder, scope).getRawMany<{ outcome: LoginOutcome; n: number | string }>();
    for (const row of rows) if (row.outcome in counts) counts[row.outcome] = Number(row.n);
    return counts;
  }
}

function inScope<T extends SelectQueryBuilder<LoginAttemptEntity>>(builder: T, scope: LoginAttemptScope): T {
  if (scope.venueIds === null) {
    if (!scope.withoutVenue) builder.andWhere('attempt.venueId IS NOT NULL');
    return builder;
  }
  const venueIds = [...scope.venueIds];
  builder.andWhere(
    new Brackets((where) => {
      if (venueIds.length > 0) where.where('attempt.venueId IN (:...scopeVenues)', { scopeVenues: venueIds });
      else where.where('1 = 0');
      if (scope.withoutVenue) where.orWhere('attempt.venueId IS NULL');
    }),
  );
  return builder;
}
