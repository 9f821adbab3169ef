import { Module } from '@nestjs/common';
import { RegisteredVenuesCheck } from './registered-venues-check.js';
import { VenuesRepository } from './venues.repository.js';
import { VenuesService } from './venues.service.js';

@Module({
  providers: [VenuesService, VenuesRepository, RegisteredVenuesCheck],
  exports: [VenuesService, RegisteredVenuesCheck],
})
export class VenuesModule {}
