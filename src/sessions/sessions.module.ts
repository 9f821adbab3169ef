import { Module } from '@nestjs/common';

/** Sessions and devices reported by the network side (issue #3 fills it). */
@Module({})
export class SessionsModule {}
