import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';

/** A probe that takes longer than this counts as a failure. */
const READINESS_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(private readonly database: DatabaseService) {}

  /** True when the database answers a trivial query in time. */
  async isDatabaseReady(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS);
    });
    const probe = this.database
      .run((em) => em.query('SELECT 1'))
      .then(() => true)
      .catch(() => false);
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
