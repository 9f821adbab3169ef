import { Module } from '@nestjs/common';
import { PlansRepository } from './plans.repository.js';
import { PlansService } from './plans.service.js';

/** Service plans (src/plans): the /api/v1/plans API and the plan a login is on. */
@Module({
  providers: [PlansService, PlansRepository],
  exports: [PlansService],
})
export class PlansModule {}
