import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators.js';
import { API_V1 } from '../common/api-paths.js';
import { ApiStandardErrors, MessageResponseDto } from '../common/swagger/error-response.dto.js';
import { NoQueryDto } from '../common/validation/no-query.dto.js';

const API_STATUS_MESSAGE = 'Server API aktif';

@ApiTags('status')
@ApiStandardErrors({ body: false })
@Controller(API_V1)
export class ApiStatusController {
  @Get()
  @RequirePermission('any')
  @ApiOperation({ summary: 'API status check', description: 'Any valid token may call it.' })
  @ApiOkResponse({ type: MessageResponseDto })
  status(@Query() _query: NoQueryDto): { success: true; message: string } {
    return { success: true, message: API_STATUS_MESSAGE };
  }
}
