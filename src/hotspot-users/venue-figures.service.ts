import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';
import type { UserStatus } from './entities/hotspot-user.entity.js';
import { VenueJobsRepository, type OpenJobCounts } from './venue-jobs.repository.js';
import { VenueCountsRepository } from './venue-counts.repository.js';

export type { OpenJobCounts } from './venue-jobs.repository.js';

/** The users' and jobs' figures of a set of venues, read for the console's dashboard. */
@Injectable()
export class VenueFiguresService {
  constructor(
    private readonly database: DatabaseService,
    private readonly counts: VenueCountsRepository,
    private readonly jobs: VenueJobsRepository,
  ) {}

  /** Users by status in these venues (null: every venue), from the venue counters. */
  userTotals(venueIds: readonly string[] | null): Promise<Record<UserStatus, number>> {
    return this.database.run((em) => this.counts.statusTotals(em, venueIds));
  }

  /** Unauth jobs still to deliver, by state, of users in these venues. */
  openJobs(venueIds: readonly string[] | null): Promise<OpenJobCounts> {
    return this.database.run((em) => this.jobs.countOpen(em, venueIds));
  }
}
