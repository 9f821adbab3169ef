import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentOrigin } from '../audit/audit-origin.decorator.js';
import type { AuditOrigin } from '../audit/audit.rules.js';
import { CurrentToken, RequirePermission } from '../auth/auth.decorators.js';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { API_V1 } from '../common/api-paths.js';
import { ApiStandardErrors, ErrorResponseDto } from '../common/swagger/error-response.dto.js';
import { NoQueryDto } from '../common/validation/no-query.dto.js';
import { CreatePlanDto } from './dto/create-plan.dto.js';
import { ListPlansQueryDto } from './dto/plan-queries.dto.js';
import { PlanDeletedResponseDto, PlanListResponseDto, PlanResponseDto, type PlanDto } from './dto/plan.response.js';
import { UpdatePlanDto } from './dto/update-plan.dto.js';
import { NO_LIMITS, type PlanChanges, type PlanFields } from './plan.rules.js';
import { PlansService } from './plans.service.js';

const ID_PARAM = {
  name: 'id',
  description: 'The plan identifier; unknown, or offered in a venue outside the token’s: 404',
};
const NOT_FOUND = { description: 'Plan not found (or offered outside this token’s venues)', type: ErrorResponseDto };
const VALIDATION = { description: 'Validation error: `errors` names each field', type: ErrorResponseDto };
const FORBIDDEN = { description: 'A venue outside this token’s venues', type: ErrorResponseDto };
const SCOPE =
  'A venue-restricted token sees and changes only the plans whose venues all lie within its own (others: 404).';

@ApiTags('plans')
@ApiStandardErrors({ body: false })
@Controller(`${API_V1}/plans`)
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiStandardErrors({ body: true })
  @RequirePermission('write')
  @ApiOperation({
    summary: 'Create a service plan (an addition to v1)',
    description:
      'A name, the venues that offer it, and any of the limits (absent or null: no limit). quotaPeriod is ' +
      'required with quotaBytes and refused without it. A venue-restricted token gets 403 for a venue outside its ' +
      'venues.',
  })
  @ApiCreatedResponse({
    type: PlanResponseDto,
    headers: { Location: { description: 'The new plan: `/api/v1/plans/<id>`', schema: { type: 'string' } } },
  })
  @ApiBadRequestResponse(VALIDATION)
  @ApiForbiddenResponse(FORBIDDEN)
  async create(
    @CurrentToken() token: AuthenticatedToken,
    @Query() _query: NoQueryDto,
    @Body() body: CreatePlanDto,
    @CurrentOrigin() origin: AuditOrigin,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ success: true; data: PlanDto }> {
    const data = await this.plans.create(token, fieldsOf(body), origin);
    response.setHeader('Location', `/${API_V1}/plans/${data._id}`);
    return { success: true, data };
  }

  @Get()
  @RequirePermission('read')
  @ApiOperation({ summary: 'List the service plans, by name (an addition to v1)', description: SCOPE })
  @ApiOkResponse({ type: PlanListResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiForbiddenResponse(FORBIDDEN)
  async list(
    @CurrentToken() token: AuthenticatedToken,
    @Query() query: ListPlansQueryDto,
  ): Promise<{ success: true; data: PlanDto[] }> {
    return { success: true, data: await this.plans.list(token, query.venueId ?? null) };
  }

  @Get(':id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'Get a service plan (an addition to v1)', description: SCOPE })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: PlanResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async get(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() _query: NoQueryDto,
  ): Promise<{ success: true; data: PlanDto }> {
    return { success: true, data: await this.plans.get(token, id) };
  }

  @Put(':id')
  @ApiStandardErrors({ body: true })
  @RequirePermission('write')
  @ApiOperation({
    summary: 'Change a service plan (an addition to v1)',
    description:
      'Send only what changes; null clears a limit. A change applies to the next login of each user on the plan. ' +
      `Taking away a venue where the plan is in use is a 409. ${SCOPE}`,
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: PlanResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiForbiddenResponse(FORBIDDEN)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({ description: 'A venue taken away still uses the plan', type: ErrorResponseDto })
  async update(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() _query: NoQueryDto,
    @Body() body: UpdatePlanDto,
    @CurrentOrigin() origin: AuditOrigin,
  ): Promise<{ success: true; data: PlanDto }> {
    return { success: true, data: await this.plans.update(token, id, changesOf(body), origin) };
  }

  @Delete(':id')
  @RequirePermission('write')
  @ApiOperation({
    summary: 'Delete a service plan nothing uses (an addition to v1)',
    description: `A plan a user or batch is on, or a venue's default plan, is a 409 that says what uses it. ${SCOPE}`,
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: PlanDeletedResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({ description: 'The plan is in use', type: ErrorResponseDto })
  async remove(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() _query: NoQueryDto,
    @CurrentOrigin() origin: AuditOrigin,
  ): Promise<{ success: true; message: string }> {
    await this.plans.remove(token, id, origin);
    return { success: true, message: 'Plan deleted' };
  }
}

function fieldsOf(body: CreatePlanDto): PlanFields {
  const fields: PlanFields = { ...NO_LIMITS, name: body.name, venueIds: body.venueIds };
  for (const limit of Object.keys(NO_LIMITS) as Array<keyof typeof NO_LIMITS>) {
    const value = body[limit];
    if (value !== undefined) Object.assign(fields, { [limit]: value });
  }
  return fields;
}

function changesOf(body: UpdatePlanDto): PlanChanges {
  const changes: PlanChanges = {};
  for (const field of ['name', 'venueIds', ...Object.keys(NO_LIMITS)] as Array<keyof PlanChanges>) {
    const value = body[field];
    if (value !== undefined) Object.assign(changes, { [field]: value });
  }
  return changes;
}
