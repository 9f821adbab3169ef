import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { NasService } from './nas.service.js';

/** At start-up, says when NAS secrets sit in clear or cannot be read with the configured SECRETS_KEY. */
@Injectable()
export class NasSecretsCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('NasSecrets');

  constructor(private readonly nas: NasService) {}

  async onApplicationBootstrap(): Promise<void> {
    const report = await this.nas.secretStorageReport();
    if (report.unreadable.length > 0) {
      this.logger.error(
        `The secrets of ${report.unreadable.length} NAS(es) cannot be read with the configured SECRETS_KEY ` +
          `(unset, or not the key they were stored with): ${report.unreadable.join(', ')}`,
      );
    }
    if (report.plain === 0) return;
    this.logger.warn(
      this.nas.encryptsSecrets
        ? `${report.plain} NAS secret(s) were stored before the key was set and remain in clear: run \`hotspot secrets rotate\` to seal them`
        : `${report.plain} NAS secret(s) are stored in clear in the database: set SECRETS_KEY (or SECRETS_KEY_FILE), then run \`hotspot secrets rotate\` to seal them`,
    );
  }
}
