import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/actor.js';
import { satisfies } from '../auth/permissions.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { DatabaseService } from '../database/database.service.js';
import type { HotspotUserDto } from './dto/hotspot-user.response.js';
import { toHotspotUserDto } from './hotspot-user.mapper.js';
import { HotspotUsersRepository, type VenueUserKey } from './hotspot-users.repository.js';

/** Users an export reads per page: one short unit of work each, so other work runs between them. */
export const EXPORT_PAGE_SIZE = 500;

/** One page of an export: its users, and where the next page starts (null: this was the last). */
export interface ExportPage {
  data: HotspotUserDto[];
  next: VenueUserKey | null;
}

/**
 * A venue's users read for an export (the console's CSV), page by page in the list's order, newest
 * first: each page is a unit of work of its own, read through the list index from where the last
 * one stopped, so an export never holds a venue's users in memory at once nor a connection (or, on
 * SQLite, the database) for long. Pages read at different moments: a user created during an export
 * is not in it (it is newer than the first page), a user deleted during it is left out from its
 * page on.
 */
@Injectable()
export class UserExportService {
  constructor(
    private readonly database: DatabaseService,
    private readonly venueScope: VenueScopeService,
    private readonly users: HotspotUsersRepository,
  ) {}

  /** The page after `after` (null: the first) of `venueId`'s users; the actor's venue scope as the list's. */
  async page(actor: Actor, venueId: string, after: VenueUserKey | null, limit = EXPORT_PAGE_SIZE): Promise<ExportPage> {
    if (!satisfies(actor.permissions, 'read')) throw ApiError.forbidden();
    this.venueScope.resolveListVenue(actor, venueId);
    return this.database.run(async (em) => {
      const keys = await this.users.findVenueUserKeys(em, venueId, after, limit);
      const records = await this.users.findShownRecords(
        em,
        keys.map((key) => key.userId),
      );
      return {
        data: records.map(({ user, venueIds, devices }) => toHotspotUserDto(user, venueIds, devices)),
        next: keys.length < limit ? null : keys[keys.length - 1],
      };
    });
  }
}
