import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/configuration.js';
import { VenuesService } from './venues.service.js';

/** VENUES_REGISTERED_ONLY: whether a write may name only registered venues, and which it names otherwise. */
@Injectable()
export class RegisteredVenuesCheck {
  private readonly registeredOnly: boolean;

  constructor(
    private readonly venues: VenuesService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.registeredOnly = config.get('venuesRegisteredOnly', { infer: true });
  }

  /** The venue ids of `venueIds` a write must refuse, read through its transaction: none unless registered-only. */
  async refused(em: EntityManager, venueIds: readonly string[]): Promise<string[]> {
    return this.registeredOnly ? this.venues.unregistered(em, venueIds) : [];
  }
}
