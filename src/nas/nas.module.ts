import { Global, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { NAS_DIRECTORY } from '../unauth-jobs/dispatchers/radius/nas-directory.js';
import { NasClientsRepository } from './nas-clients.repository.js';
import { NasSecretsCheck } from './nas-secrets-check.js';
import { NasService } from './nas.service.js';

/**
 * The NAS registry (RADIUS clients). Global, so the unauth job worker (a layer below) finds the
 * NAS_DIRECTORY it sends Disconnect/CoA-Requests with.
 */
@Global()
@Module({
  imports: [AuditModule, VenuesModule],
  providers: [NasService, NasClientsRepository, NasSecretsCheck, { provide: NAS_DIRECTORY, useExisting: NasService }],
  exports: [NasService, NAS_DIRECTORY],
})
export class NasModule {}
