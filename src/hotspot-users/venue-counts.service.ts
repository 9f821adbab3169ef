import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';
import { VenueCountsRepository } from './venue-counts.repository.js';
import { foldCounts } from './venue-counts.rules.js';

/** Counter changes folded per transaction. */
const FOLD_BATCH_SIZE = 1000;

@Injectable()
export class VenueCountsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly counts: VenueCountsRepository,
  ) {}

  /**
   * Adds the committed counter changes to the venue counters and deletes them, a batch per
   * transaction, until none is left; returns how many it folded. It waits for nobody: on MySQL
   * another process's fold makes this one return at once, and changes of transactions still open
   * are left for a later fold. With nothing to fold it opens no transaction (on SQLite, where a
   * transaction takes the file's write lock). The list reads the same totals before and after.
   */
  async fold(): Promise<number> {
    if (!(await this.database.run((em) => this.counts.hasChanges(em)))) return 0;
    let folded = 0;
    for (;;) {
      const batch = await this.database.transaction(
        async (em) => {
          const lock = await this.counts.tryFoldLock(em);
          if (lock === 'busy') return 0;
          try {
            const changes = await this.counts.lockChanges(em, FOLD_BATCH_SIZE);
            await this.counts.addToCounters(em, foldCounts(changes));
            await this.counts.deleteChanges(
              em,
              changes.map((change) => change.id),
            );
            return changes.length;
          } finally {
            if (lock === 'held') await this.counts.releaseFoldLock(em);
          }
        },
        { readCommitted: true },
      );
      folded += batch;
      if (batch < FOLD_BATCH_SIZE) return folded;
    }
  }
}
