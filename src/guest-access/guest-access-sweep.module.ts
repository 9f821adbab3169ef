import { Module } from '@nestjs/common';
import { GuestAccessModule } from './guest-access.module.js';
import { PortalPassesSweeper } from './portal-passes.sweeper.js';

/** The sweep of expired hand-over passes: API instances import it, commands do not. */
@Module({ imports: [GuestAccessModule], providers: [PortalPassesSweeper] })
export class GuestAccessSweepModule {}
