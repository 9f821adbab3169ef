import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DevicesRepository } from './devices.repository.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';

/** Sessions and devices, as reported by the network side. */
@Module({
  imports: [AuditModule],
  providers: [SessionsService, SessionsRepository, DevicesRepository],
  // The repositories serve the network side above (RADIUS accounting), inside its own transactions.
  exports: [SessionsService, SessionsRepository, DevicesRepository],
})
export class SessionsModule {}
