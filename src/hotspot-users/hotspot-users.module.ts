import { Module } from '@nestjs/common';

/** The hotspot users API (issue #3 fills it). */
@Module({})
export class HotspotUsersModule {}
