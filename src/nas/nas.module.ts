import { Module } from '@nestjs/common';
import { NasSecretsCheck } from './nas-secrets-check.js';
import { NasService } from './nas.service.js';

/** The NAS registry (RADIUS clients). */
@Module({
  providers: [NasService, NasSecretsCheck],
  exports: [NasService],
})
export class NasModule {}
