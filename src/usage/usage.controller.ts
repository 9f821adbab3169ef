import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { CurrentToken, RequirePermission } from '../auth/auth.decorators.js';
import { API_V1 } from '../common/api-paths.js';
import { ApiStandardErrors, ErrorResponseDto } from '../common/swagger/error-response.dto.js';
import { VenueContextDto } from '../hotspot-users/dto/hotspot-user-queries.dto.js';
import { UserUsageResponseDto, type UserUsageDto } from './dto/user-usage.response.js';
import { UsageService } from './usage.service.js';

@ApiTags('hotspot-users')
@ApiStandardErrors({ body: false })
@Controller(`${API_V1}/hotspot-users`)
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get(':id/usage')
  @RequirePermission('read')
  @ApiOperation({
    summary: "A user's usage against its plan",
    description:
      "Today's (in the venue's time zone) and the total octets and seconds, and for each limit of the user's plan " +
      "at the venue (its own, else the venue's default) what it allows, what was used and what is left, with the " +
      "period's start and end. Counted from accounting every USAGE_SWEEP_INTERVAL seconds. Same venue rules as get.",
  })
  @ApiParam({ name: 'id', description: 'The user identifier (opaque string); anything unknown is a 404' })
  @ApiOkResponse({ type: UserUsageResponseDto })
  @ApiBadRequestResponse({ description: 'Validation error: `errors` names each field', type: ErrorResponseDto })
  @ApiNotFoundResponse({
    description: 'Kullanıcı bulunamadı: unknown id, or not visible to this token',
    type: ErrorResponseDto,
  })
  async get(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: VenueContextDto,
  ): Promise<{ success: true; data: UserUsageDto }> {
    return { success: true, data: await this.usage.usageOf(token, id, query) };
  }
}
