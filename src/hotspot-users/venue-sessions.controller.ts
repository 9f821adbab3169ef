import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { CurrentToken, RequirePermission } from '../auth/auth.decorators.js';
import { API_V1 } from '../common/api-paths.js';
import { ApiStandardErrors, ErrorResponseDto } from '../common/swagger/error-response.dto.js';
import type { PaginationDto } from './dto/hotspot-user.response.js';
import {
  ListVenueSessionsQueryDto,
  VenueSessionListResponseDto,
  type VenueSessionDto,
} from './dto/venue-sessions.dto.js';
import { toSessionsQuery } from './hotspot-user.inputs.js';
import { VenueSessionsService } from './venue-sessions.service.js';

@ApiTags('sessions')
@ApiStandardErrors({ body: false })
@Controller(`${API_V1}/sessions`)
export class VenueSessionsController {
  constructor(private readonly sessions: VenueSessionsService) {}

  @Get()
  @RequirePermission('read')
  @ApiOperation({
    summary: "List a venue's sessions (an addition to v1)",
    description:
      'Newest first; as reported by RADIUS accounting (or started by the session CLI). `status=active` is who is ' +
      'online now, with `stale` flagging sessions no accounting update reached within the stale window. Same venue ' +
      'rules as the users list: a venue-restricted token gets 403 for a venue outside its venues.',
  })
  @ApiOkResponse({ type: VenueSessionListResponseDto })
  @ApiBadRequestResponse({ description: 'Validation error: `errors` names each field', type: ErrorResponseDto })
  async list(
    @CurrentToken() token: AuthenticatedToken,
    @Query() query: ListVenueSessionsQueryDto,
  ): Promise<{ success: true; data: VenueSessionDto[]; pagination: PaginationDto }> {
    return { success: true, ...(await this.sessions.list(token, toSessionsQuery(query))) };
  }
}
