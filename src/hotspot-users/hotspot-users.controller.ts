import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
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
import { CreateHotspotUserDto } from './dto/create-hotspot-user.dto.js';
import { ListHotspotUsersQueryDto, NoQueryDto, VenueContextDto } from './dto/hotspot-user-queries.dto.js';
import {
  DeleteResponseDto,
  ExpireResponseDto,
  HotspotUserListResponseDto,
  HotspotUserMessageResponseDto,
  HotspotUserResponseDto,
  type HotspotUserDto,
  type PaginationDto,
} from './dto/hotspot-user.response.js';
import { UpdateHotspotUserDto } from './dto/update-hotspot-user.dto.js';
import {
  ListUserSessionsQueryDto,
  UserSessionListResponseDto,
  type UserSessionDto,
} from './dto/hotspot-user-sessions.dto.js';
import { toCreateInput, toListQuery, toSessionsQuery, toUpdateInput } from './hotspot-user.inputs.js';
import { HotspotUsersService, type ExpireResult } from './hotspot-users.service.js';

export const SUCCESS_MESSAGES = {
  created: 'Hotspot kullanıcısı başarıyla oluşturuldu',
  updated: 'Kullanıcı başarıyla güncellendi',
  deleted: 'Kullanıcı başarıyla silindi',
  expired: "Kullanıcı ve session'lar başarıyla expire edildi",
} as const;

const ID_PARAM = { name: 'id', description: 'The user identifier (opaque string); anything unknown is a 404' };
const VALIDATION = { description: 'Validation error: `errors` names each field', type: ErrorResponseDto };
const NOT_FOUND = { description: 'Kullanıcı bulunamadı: unknown id, or not visible to this token', type: ErrorResponseDto };
const SCOPE =
  'A venue-restricted token gets 403 for a venue outside its venues and for a user it does not fully cover.';

@ApiTags('hotspot-users')
@ApiStandardErrors({ body: false })
@Controller(`${API_V1}/hotspot-users`)
export class HotspotUsersController {
  constructor(private readonly users: HotspotUsersService) {}

  @Get()
  @RequirePermission('read')
  @ApiOperation({ summary: 'List the users of a venue', description: `Newest first. ${SCOPE}` })
  @ApiOkResponse({ type: HotspotUserListResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  async list(
    @CurrentToken() token: AuthenticatedToken,
    @Query() query: ListHotspotUsersQueryDto,
  ): Promise<{ success: true; data: HotspotUserDto[]; pagination: PaginationDto }> {
    const page = await this.users.list(token, toListQuery(query));
    return { success: true, ...page };
  }

  @Get(':id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'Get one user, with its devices' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: HotspotUserResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  async get(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: VenueContextDto,
  ): Promise<{ success: true; data: HotspotUserDto }> {
    return { success: true, data: await this.users.get(token, id, query) };
  }

  @Get(':id/sessions')
  @RequirePermission('read')
  @ApiOperation({
    summary: "List a user's sessions (an addition to v1)",
    description:
      'Newest first; as reported by RADIUS accounting (or started by the session CLI). Same venue rules as get.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: UserSessionListResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  async sessions(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: ListUserSessionsQueryDto,
  ): Promise<{ success: true; data: UserSessionDto[]; pagination: PaginationDto }> {
    return { success: true, ...(await this.users.sessionsOf(token, id, toSessionsQuery(query))) };
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiStandardErrors({ body: true })
  @RequirePermission('write')
  @ApiOperation({ summary: 'Create a user', description: `Status starts active, devices empty. ${SCOPE}` })
  @ApiCreatedResponse({ type: HotspotUserMessageResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiConflictResponse({ description: 'username, email or phone already used in one of the venues', type: ErrorResponseDto })
  async create(
    @CurrentToken() token: AuthenticatedToken,
    @Query() _query: NoQueryDto,
    @Body() body: CreateHotspotUserDto,
  ): Promise<{ success: true; message: string; data: HotspotUserDto }> {
    return { success: true, message: SUCCESS_MESSAGES.created, data: await this.users.create(token, toCreateInput(body)) };
  }

  @Put(':id')
  @ApiStandardErrors({ body: true })
  @RequirePermission('write')
  @ApiOperation({
    summary: 'Update a user',
    description:
      'Send only the fields to change. Moving to blocked or expired ends the active sessions and writes an unauth job. ' +
      SCOPE,
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: HotspotUserMessageResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({ description: 'Expired users cannot be edited, or a uniqueness clash', type: ErrorResponseDto })
  async update(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: VenueContextDto,
    @Body() body: UpdateHotspotUserDto,
  ): Promise<{ success: true; message: string; data: HotspotUserDto }> {
    return { success: true, message: SUCCESS_MESSAGES.updated, data: await this.users.update(token, id, query, toUpdateInput(body)) };
  }

  @Delete(':id')
  @RequirePermission('delete')
  @ApiOperation({ summary: 'Delete a user', description: `Active sessions are ended with an unauth job first. ${SCOPE}` })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: DeleteResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  async remove(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: VenueContextDto,
  ): Promise<{ success: true; message: string }> {
    await this.users.remove(token, id, query);
    return { success: true, message: SUCCESS_MESSAGES.deleted };
  }

  @Post(':id/expire')
  @ApiStandardErrors({ body: true })
  @HttpCode(HttpStatus.OK)
  @RequirePermission('write')
  @ApiOperation({
    summary: "Expire a user's sessions and the user",
    description: `Ends the active sessions in every venue; idempotent. The body is optional. ${SCOPE}`,
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: ExpireResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  async expire(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() _query: NoQueryDto,
    @Body() body: VenueContextDto,
  ): Promise<{ success: true; message: string; data: ExpireResult }> {
    return { success: true, message: SUCCESS_MESSAGES.expired, data: await this.users.expire(token, id, body) };
  }
}
