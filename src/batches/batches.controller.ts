import { CurrentDeadline } from '../common/load/current-deadline.decorator.js';
import type { Deadline } from '../common/load/deadline.js';
import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiGoneResponse,
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
import type { PaginationDto } from '../hotspot-users/dto/hotspot-user.response.js';
import {
  CurrentIdempotencyClaim,
  Idempotent,
  REPLAYED_RESPONSE_HEADER,
} from '../idempotency/idempotency.decorators.js';
import type { HttpAnswer } from '../idempotency/idempotency.rules.js';
import type { IdempotencyClaim } from '../idempotency/idempotency.service.js';
import { BatchesService, PASSWORDS_GONE } from './batches.service.js';
import { CreateBatchDto, ListBatchesQueryDto, toBatchRequest, toPageQuery } from './dto/create-batch.dto.js';
import {
  BatchCardsResponseDto,
  BatchListResponseDto,
  BatchResponseDto,
  type BatchCardsDto,
  type BatchDetailDto,
  type BatchDto,
} from './dto/batch.response.js';

const ID_PARAM = { name: 'id', description: 'The batch identifier; unknown, or of a venue outside the token’s: 404' };
const NOT_FOUND = { description: 'Batch not found (or outside this token’s venues)', type: ErrorResponseDto };
const VALIDATION = { description: 'Validation error: `errors` names each field', type: ErrorResponseDto };

@ApiTags('hotspot-user-batches')
@ApiStandardErrors({ body: false })
@Controller(`${API_V1}/hotspot-user-batches`)
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiStandardErrors({ body: true })
  @RequirePermission('write')
  @Idempotent('planId names a plan that does not exist or is not offered in the venue (`Plan not usable here`)')
  @ApiOperation({
    summary: 'Create a batch of accounts (vouchers) for one venue (an addition to v1)',
    description:
      '1 to 1,000 username_password users in one transaction: usernames from the prefix plus 6 random characters ' +
      '(a clash with an existing username is drawn again), passwords from an alphabet without look-alikes. The ' +
      'answer lists the accounts without passwords: POST /{id}/reveal shows them. A venue-restricted token gets 403 ' +
      'for a venue outside its venues. With an Idempotency-Key, a replay answers the same batch (it holds no password).',
  })
  @ApiCreatedResponse({
    type: BatchResponseDto,
    headers: {
      Location: { description: 'The new batch: `/api/v1/hotspot-user-batches/<id>`', schema: { type: 'string' } },
      ...REPLAYED_RESPONSE_HEADER,
    },
  })
  @ApiBadRequestResponse(VALIDATION)
  @ApiConflictResponse({
    description: 'a request with the same Idempotency-Key is in progress',
    type: ErrorResponseDto,
  })
  async create(
    @CurrentToken() token: AuthenticatedToken,
    @Query() _query: NoQueryDto,
    @Body() body: CreateBatchDto,
    @CurrentIdempotencyClaim() claim: IdempotencyClaim | null,
    @CurrentOrigin() origin: AuditOrigin,
    @CurrentDeadline() deadline: Deadline,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ success: true; data: BatchDetailDto }> {
    const created = await this.batches.create(
      token,
      toBatchRequest(body),
      origin,
      claim === null ? null : { claim, answer: createdAnswer },
      deadline,
    );
    const answer = createdAnswer(created);
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    return answer.body as { success: true; data: BatchDetailDto };
  }

  @Get()
  @RequirePermission('read')
  @ApiOperation({ summary: "List a venue's batches, newest first (an addition to v1)" })
  @ApiOkResponse({ type: BatchListResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  async list(
    @CurrentToken() token: AuthenticatedToken,
    @Query() query: ListBatchesQueryDto,
  ): Promise<{ success: true; data: BatchDto[]; pagination: PaginationDto }> {
    return { success: true, ...(await this.batches.list(token, query.venueId, toPageQuery(query))) };
  }

  @Get(':id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'Get a batch with its accounts and their status, without passwords (an addition to v1)' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: BatchResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  async get(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() _query: NoQueryDto,
  ): Promise<{ success: true; data: BatchDetailDto }> {
    return { success: true, data: await this.batches.get(token, id) };
  }

  @Post(':id/reveal')
  @HttpCode(HttpStatus.OK)
  @RequirePermission('write')
  @ApiOperation({
    summary: "Reveal a batch's passwords (an addition to v1)",
    description:
      'Write permission. The first reveal (this, or a print or CSV export in the console or the command line) opens ' +
      'a 24-hour window; each reveal is audited (batch.reveal, never the passwords). After the window: 410, and the ' +
      'passwords are erased.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: BatchCardsResponseDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiGoneResponse({ description: PASSWORDS_GONE, type: ErrorResponseDto })
  async reveal(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() _query: NoQueryDto,
    @CurrentOrigin() origin: AuditOrigin,
  ): Promise<{ success: true; data: BatchCardsDto }> {
    return { success: true, data: await this.batches.reveal(token, id, origin) };
  }
}

function createdAnswer(data: BatchDetailDto): HttpAnswer {
  return {
    status: HttpStatus.CREATED,
    headers: { Location: `/${API_V1}/hotspot-user-batches/${data.id}` },
    body: { success: true, data },
  };
}
