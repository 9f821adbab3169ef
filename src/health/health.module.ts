import { Module } from '@nestjs/common';
import { ApiStatusController } from './api-status.controller.js';
import { HealthController } from './health.controller.js';
import { HealthService } from './health.service.js';

@Module({
  controllers: [ApiStatusController, HealthController],
  providers: [HealthService],
})
export class HealthModule {}
