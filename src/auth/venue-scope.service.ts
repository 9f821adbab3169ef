import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { Actor } from './actor.js';

/**
 * The venue restriction of a token (docs/api.md, "Venue scope"). A token with `venueIds: null` is
 * authorised for every venue. A console operator is held to the same rules through the same code:
 * both are an Actor.
 */
@Injectable()
export class VenueScopeService {
  isInScope(token: Actor, venueId: string): boolean {
    return token.venueIds === null || token.venueIds.includes(venueId);
  }

  /** 403 naming `field` when any of `venueIds` lies outside the token's venues. */
  assertVenuesInScope(token: Actor, venueIds: readonly string[], field: string): void {
    const outside = venueIds.filter((venueId) => !this.isInScope(token, venueId));
    if (outside.length > 0) {
      throw ApiError.forbidden([{ field, message: `venue ${outside.join(', ')} is outside this token's venues` }]);
    }
  }

  /** Reading a user needs an overlap between its venues and the token's. */
  canRead(token: Actor, userVenueIds: readonly string[]): boolean {
    return userVenueIds.some((venueId) => this.isInScope(token, venueId));
  }

  /**
   * Changing a user needs the token to cover all of its venues: no venue in common is a 404 (the
   * user does not exist for this token), some but not all is a 403.
   */
  assertCanChange(token: Actor, userVenueIds: readonly string[]): void {
    if (!this.canRead(token, userVenueIds)) throw ApiError.userNotFound();
    const uncovered = userVenueIds.filter((venueId) => !this.isInScope(token, venueId));
    if (uncovered.length > 0) {
      throw ApiError.forbidden([
        {
          field: 'venueIds',
          message: `user also belongs to venue ${uncovered.join(', ')}, outside this token's venues`,
        },
      ]);
    }
  }

  /**
   * The venue a list is about: the query's, else the token's only venue; none is a 400 naming
   * `venueId`, one outside the token's venues a 403.
   */
  resolveListVenue(token: Actor, requested: string | undefined): string {
    if (requested !== undefined) {
      this.assertVenuesInScope(token, [requested], 'venueId');
      return requested;
    }
    if (token.venueIds !== null && token.venueIds.length === 1) return token.venueIds[0];
    throw ApiError.validation([{ field: 'venueId', message: 'venueId is required' }]);
  }
}
