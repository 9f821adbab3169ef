import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { CurrentToken, RequirePermission } from '../auth/auth.decorators.js';
import { UNAUTH_JOBS_PATH } from '../common/api-paths.js';
import { ERROR_MESSAGES } from '../common/errors/api-error.js';
import { ApiStandardErrors, ErrorResponseDto } from '../common/swagger/error-response.dto.js';
import { NoQueryDto } from '../common/validation/no-query.dto.js';
import { UnauthJobResponseDto, type UnauthJobDto } from './dto/unauth-job.response.js';
import { UserUnauthJobsService } from './user-unauth-jobs.service.js';

@ApiTags('unauth-jobs')
@ApiStandardErrors({ body: false })
@Controller(UNAUTH_JOBS_PATH)
export class UnauthJobsController {
  constructor(private readonly jobs: UserUnauthJobsService) {}

  @Get(':id')
  @RequirePermission('read')
  @ApiOperation({
    summary: 'Follow an unauth job (an addition to v1)',
    description:
      'The job a change wrote (named by the Link header of its answer): its status and what each NAS answered for ' +
      "each session. Readable by a token with a venue in common with the job's user; once the user is deleted, " +
      "with one of the venues of the job's sessions. Only the sessions in the token's venues are shown.",
  })
  @ApiParam({ name: 'id', description: 'The job identifier (opaque string); anything unknown is a 404' })
  @ApiOkResponse({ type: UnauthJobResponseDto })
  @ApiNotFoundResponse({
    description: `${ERROR_MESSAGES.unauthJobNotFound}: unknown id, or not visible to this token`,
    type: ErrorResponseDto,
    example: { success: false, message: ERROR_MESSAGES.unauthJobNotFound },
  })
  async get(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() _query: NoQueryDto,
  ): Promise<{ success: true; data: UnauthJobDto }> {
    return { success: true, data: await this.jobs.get(token, id) };
  }
}
