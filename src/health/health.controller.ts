import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/public-route.js';
import { HealthService } from './health.service.js';

/** Probes for orchestrators, outside /api/v1 and without a token. */
@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness: the process is running' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ schema: { example: { status: 'ready', database: 'up' } } })
  @ApiServiceUnavailableResponse({ schema: { example: { status: 'not ready', database: 'down' } } })
  async ready(@Res({ passthrough: true }) res: Response): Promise<{ status: string; database: string }> {
    if (await this.health.isDatabaseReady()) return { status: 'ready', database: 'up' };
    res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'not ready', database: 'down' };
  }
}
