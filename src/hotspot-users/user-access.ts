import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../auth/actor.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { VenueContextDto } from './dto/hotspot-user-queries.dto.js';
import { ifMatchAllows, PRECONDITION_FAILED, type IfMatch } from './hotspot-user.etag.js';
import { HotspotUsersRepository, type UserRecord } from './hotspot-users.repository.js';

/** The If-Match of a change, parsed; null when the request has none. */
export type Precondition = IfMatch | null;

/** Which user a token may read or change, with the venue given as context: 403, 404 and 412 come from here. */
@Injectable()
export class UserAccess {
  constructor(
    private readonly venueScope: VenueScopeService,
    private readonly users: HotspotUsersRepository,
  ) {}

  /** The user as the token may read it: 404 when it does not exist, is out of scope or not in the given venue. */
  async findReadable(em: EntityManager, token: Actor, id: string, context: VenueContextDto): Promise<UserRecord> {
    const record = await this.users.findRecord(em, id);
    this.assertReadable(token, record, context);
    return record;
  }

  /** As findReadable, for a record the caller read itself. */
  assertReadable<T extends UserRecord>(
    token: Actor,
    record: T | null | undefined,
    context: VenueContextDto,
  ): asserts record is T {
    if (record == null || !this.venueScope.canRead(token, record.venueIds) || !inContext(record, context)) {
      throw ApiError.userNotFound();
    }
  }

  assertContextInScope(token: Actor, context: VenueContextDto): void {
    if (context.venueId !== undefined) this.venueScope.assertVenuesInScope(token, [context.venueId], 'venueId');
  }

  /**
   * The user a change is about, locked for the transaction before any session or device (as a
   * session start locks it: see HotspotUsersRepository.lockRecord): 404 when it does not exist for
   * this token or is not in the given venue, 403 when the token does not cover all its venues, 412
   * when it changed since the If-Match: checked on the locked row, nothing can change it in between.
   */
  async findChangeable(
    em: EntityManager,
    token: Actor,
    id: string,
    context: VenueContextDto,
    precondition: Precondition,
  ): Promise<UserRecord> {
    const record = await this.users.lockRecord(em, id);
    if (record === null) throw ApiError.userNotFound();
    this.venueScope.assertCanChange(token, record.venueIds);
    if (!inContext(record, context)) throw ApiError.userNotFound();
    if (!ifMatchAllows(precondition, record.user.version)) {
      throw new ApiError(HttpStatus.PRECONDITION_FAILED, PRECONDITION_FAILED);
    }
    return record;
  }
}

function inContext(record: UserRecord, context: VenueContextDto): boolean {
  return context.venueId === undefined || record.venueIds.includes(context.venueId);
}
