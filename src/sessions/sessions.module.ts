import { Module } from '@nestjs/common';
import { SessionsService } from './sessions.service.js';

/** Sessions and devices, as reported by the network side. */
@Module({
  providers: [SessionsService],
  exports: [SessionsService],
})
export class SessionsModule {}
