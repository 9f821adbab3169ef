import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/configuration.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { ApiTokenService } from './api-token.service.js';

export const BOOTSTRAP_TOKEN_NAME = 'bootstrap';

/**
 * Makes a fresh installation usable: when no token exists, BOOTSTRAP_TOKEN is stored as an
 * unrestricted delete-level token; on the embedded database without it, one is generated and
 * printed once (to stdout, never through the logger).
 */
@Injectable()
export class BootstrapTokenService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly tokens: ApiTokenService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.tokens.count()) > 0) return;
    const configured = this.config.get('bootstrapToken', { infer: true });
    const embedded = this.config.get('database', { infer: true }).type === 'sqlite';
    if (configured === null && !embedded) {
      this.logger.warn(
        'No API token exists. Create one with: npm run token -- create --name admin --permissions read,write,delete',
      );
      return;
    }
    const input = { name: BOOTSTRAP_TOKEN_NAME, permissions: ['delete' as const], venueIds: null, expiresAt: null };
    try {
      const { value } = await this.tokens.create(input, configured ?? undefined);
      if (configured !== null) {
        this.logger.log('Stored BOOTSTRAP_TOKEN as an unrestricted token with the delete permission');
      } else {
        process.stdout.write(
          `\nNo API token existed, so one was created (delete permission, all venues). It is shown only once:\n\n` +
            `    ${value}\n\n` +
            `Use it as: Authorization: Bearer <token>\n\n`,
        );
      }
    } catch (error) {
      // Another instance stored the same BOOTSTRAP_TOKEN at the same moment.
      if (!isUniqueViolation(error)) throw error;
    }
  }
}
