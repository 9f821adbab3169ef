import { Module } from '@nestjs/common';
import { UnauthJobsService } from './unauth-jobs.service.js';

/** The outbox of unauth jobs: rows telling the network side to disconnect a user's sessions. */
@Module({
  providers: [UnauthJobsService],
  exports: [UnauthJobsService],
})
export class UnauthJobsModule {}
