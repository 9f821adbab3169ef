import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { RegisteredVenuesCheck } from './registered-venues-check.js';
import { VenuesRepository } from './venues.repository.js';
import { VenuesService } from './venues.service.js';

@Module({
  imports: [AuditModule],
  providers: [VenuesService, VenuesRepository, RegisteredVenuesCheck],
  exports: [VenuesService, RegisteredVenuesCheck],
})
export class VenuesModule {}
