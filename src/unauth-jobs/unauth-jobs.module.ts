import { Module } from '@nestjs/common';

/** The outbox of unauth jobs (issue #3 fills it). */
@Module({})
export class UnauthJobsModule {}
