import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/public-route.js';
import { serviceVersion } from '../common/service-version.js';
import { HealthService } from './health.service.js';

class LivenessDto {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';

  @ApiProperty({ description: 'The version of the running build (package.json)', example: '0.1.0' })
  version!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The git commit the running build was made from; null when unknown',
    example: '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b',
  })
  commit!: string | null;
}

class ReadinessDto {
  @ApiProperty({ enum: ['ready', 'not ready'] })
  status!: 'ready' | 'not ready';

  @ApiProperty({ enum: ['up', 'down'] })
  database!: 'up' | 'down';
}

/** Probes for orchestrators, outside /api/v1 and without a token. */
@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness: the process is running, and which build it is' })
  @ApiOkResponse({ type: LivenessDto, example: { status: 'ok', version: '0.1.0', commit: null } })
  live(): LivenessDto {
    return { status: 'ok', ...serviceVersion() };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ type: ReadinessDto, example: { status: 'ready', database: 'up' } })
  @ApiServiceUnavailableResponse({
    description: 'The database does not answer within 2 s',
    type: ReadinessDto,
    example: { status: 'not ready', database: 'down' },
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<{ status: string; database: string }> {
    if (await this.health.isDatabaseReady()) return { status: 'ready', database: 'up' };
    res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'not ready', database: 'down' };
  }
}
