import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SYSTEM_ACTOR } from '../audit/audit.rules.js';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/configuration.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { ApiTokenService } from './api-token.service.js';

const BOOTSTRAP_TOKEN_NAME = 'bootstrap';

/** What start-up found: a token was generated (its value, to show once), or none exists and none could be made. */
export type BootstrapOutcome = { kind: 'generated'; token: string } | { kind: 'missing' } | null;

/**
 * Makes a fresh installation usable: when no token exists, BOOTSTRAP_TOKEN is stored as an
 * unrestricted delete-level token; on the embedded database without it, one is generated. The
 * process entry point tells the operator (takeOutcome) once the service listens: the generated
 * value is printed once, to stdout, never through the logger.
 */
@Injectable()
export class BootstrapTokenService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');
  private outcome: BootstrapOutcome = null;

  constructor(
    private readonly tokens: ApiTokenService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.tokens.count()) > 0) return;
    const configured = this.config.get('bootstrapToken', { infer: true });
    const embedded = this.config.get('database', { infer: true }).type === 'sqlite';
    if (configured === null && !embedded) {
      this.outcome = { kind: 'missing' };
      return;
    }
    const input = { name: BOOTSTRAP_TOKEN_NAME, permissions: ['delete' as const], venueIds: null, expiresAt: null };
    try {
      const { value } = await this.tokens.create(input, configured ?? undefined, SYSTEM_ACTOR);
      if (configured !== null) {
        this.logger.log('Stored BOOTSTRAP_TOKEN as an unrestricted token with the delete permission');
      } else {
        this.outcome = { kind: 'generated', token: value };
      }
    } catch (error) {
      // Another instance stored the same BOOTSTRAP_TOKEN at the same moment.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** The start-up's outcome, once: the generated value is not kept in memory after it was shown. */
  takeOutcome(): BootstrapOutcome {
    const outcome = this.outcome;
    this.outcome = null;
    return outcome;
  }
}
