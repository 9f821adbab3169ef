import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { FirstAdminService } from './first-admin.service.js';
import { OperatorsRepository } from './operators.repository.js';
import { OperatorsService } from './operators.service.js';

/** The people who sign in to the console, and the first administrator of a fresh installation. */
@Module({
  imports: [AuditModule],
  providers: [OperatorsRepository, OperatorsService, FirstAdminService],
  exports: [OperatorsService],
})
export class OperatorsModule {}
