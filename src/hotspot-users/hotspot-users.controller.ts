import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPreconditionFailedResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { CurrentOrigin } from '../audit/audit-origin.decorator.js';
import type { AuditOrigin } from '../audit/audit.rules.js';
import { CurrentToken, RequirePermission } from '../auth/auth.decorators.js';
import { API_V1 } from '../common/api-paths.js';
import { ApiError, ERROR_MESSAGES } from '../common/errors/api-error.js';
import { ApiStandardErrors, ErrorResponseDto } from '../common/swagger/error-response.dto.js';
import {
  CurrentIdempotencyClaim,
  Idempotent,
  REPLAYED_RESPONSE_HEADER,
} from '../idempotency/idempotency.decorators.js';
import { IDEMPOTENCY_MESSAGES, type HttpAnswer } from '../idempotency/idempotency.rules.js';
import type { IdempotencyClaim, IdempotentCall } from '../idempotency/idempotency.service.js';
import { CreateHotspotUserDto } from './dto/create-hotspot-user.dto.js';
import {
  ExpireHotspotUserDto,
  ListHotspotUsersQueryDto,
  UserPageQueryDto,
  VenueContextDto,
} from './dto/hotspot-user-queries.dto.js';
import { NoQueryDto } from '../common/validation/no-query.dto.js';
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
import { etagOf, IF_MATCH_PROBLEM, parseIfMatch, PRECONDITION_FAILED } from './hotspot-user.etag.js';
import { toCreateInput, toListQuery, toSessionsQuery, toUpdateInput, toUserPageQuery } from './hotspot-user.inputs.js';
import { HotspotUsersService, type ExpireResult, type Versioned, type WroteJobs } from './hotspot-users.service.js';
import { UnauthJobListResponseDto, type UnauthJobDto } from './dto/unauth-job.response.js';
import { UNAUTH_JOB_LINK_HEADER, unauthJobLinks } from './unauth-job-link.js';
import type { Precondition } from './user-access.js';
import { UserUnauthJobsService } from './user-unauth-jobs.service.js';

const SUCCESS_MESSAGES = {
  created: 'Hotspot kullanıcısı başarıyla oluşturuldu',
  updated: 'Kullanıcı başarıyla güncellendi',
  deleted: 'Kullanıcı başarıyla silindi',
  expired: "Kullanıcı ve session'lar başarıyla expire edildi",
} as const;

const ID_PARAM = { name: 'id', description: 'The user identifier (opaque string); anything unknown is a 404' };
const VALIDATION = { description: 'Validation error: `errors` names each field', type: ErrorResponseDto };
/** A create's or a PUT's 400, which VENUES_REGISTERED_ONLY widens. */
const VALIDATION_OF_WRITE = {
  description:
    'Validation error: `errors` names each field; with VENUES_REGISTERED_ONLY=true, also `venueIds` ' +
    'holding a venue id without a registry entry',
  type: ErrorResponseDto,
};
const NOT_FOUND = {
  description: 'Kullanıcı bulunamadı: unknown id, or not visible to this token',
  type: ErrorResponseDto,
};
const SCOPE =
  'A venue-restricted token gets 403 for a venue outside its venues and for a user it does not fully cover.';
const ETAG_HEADER = {
  ETag: {
    description: 'Strong validator of the user, e.g. `"v3"`; send it back as If-Match',
    schema: { type: 'string' },
  },
};
const LOCATION_HEADER = {
  Location: { description: 'The new user: `/api/v1/hotspot-users/<id>`', schema: { type: 'string' } },
};
const IF_MATCH = {
  name: 'If-Match',
  required: false,
  description:
    'Change only if the user still has this ETag (`*`: if it exists); otherwise 412 and nothing changes. ' +
    'Malformed: 400.',
  schema: { type: 'string' },
};
const PRECONDITION = {
  description: `${PRECONDITION_FAILED}: the user changed since the If-Match ETag`,
  type: ErrorResponseDto,
};
const IN_PROGRESS = 'a request with the same Idempotency-Key is in progress';
/** The example bodies of each kind of 409. */
const CONFLICT_EXAMPLES = {
  clash: {
    summary: 'username, email or phone already used in a venue',
    value: {
      success: false,
      message: ERROR_MESSAGES.conflict,
      errors: [{ field: 'username', message: 'username already used in venue istanbul-lobby' }],
    },
  },
  expired: {
    summary: 'the user is expired',
    value: { success: false, message: ERROR_MESSAGES.expiredUserNotEditable },
  },
  inProgress: {
    summary: 'the same Idempotency-Key is in progress',
    value: { success: false, message: IDEMPOTENCY_MESSAGES.inProgress },
  },
};

const PLAN_NOT_USABLE_HERE =
  'planId names a plan that does not exist or is not offered in every venue of the user (`Plan not usable here`)';

@ApiTags('hotspot-users')
@ApiStandardErrors({ body: false })
@Controller(`${API_V1}/hotspot-users`)
export class HotspotUsersController {
  constructor(
    private readonly users: HotspotUsersService,
    private readonly unauthJobs: UserUnauthJobsService,
  ) {}

  @Get()
  @RequirePermission('read')
  @ApiOperation({
    summary: 'List the users of a venue',
    description: `Newest first; \`q\` finds users by a prefix of their name, username, email, phone or MAC. ${SCOPE}`,
  })
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
  @ApiOkResponse({ type: HotspotUserResponseDto, headers: ETAG_HEADER })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  async get(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: VenueContextDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ success: true; data: HotspotUserDto }> {
    const { data, version } = await this.users.get(token, id, query);
    response.setHeader('ETag', etagOf(version));
    return { success: true, data };
  }

  @Get(':id/sessions')
  @RequirePermission('read')
  @ApiOperation({
    summary: "List a user's sessions (an addition to v1)",
    description:
      'Newest first; as reported by RADIUS accounting (or started by the session CLI). Same venue rules as get; ' +
      "only the sessions in the token's venues (a user in two venues is seen from each apart).",
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

  @Get(':id/unauth-jobs')
  @RequirePermission('read')
  @ApiOperation({
    summary: "List a user's unauth jobs (an addition to v1)",
    description:
      'Newest first: what each change asked of the network side (Disconnects, CoAs) and what each NAS answered for ' +
      'each session. Same venue rules as get; a deleted user is a 404 here, its jobs stay readable one by one. ' +
      "Each job shows only its sessions in the token's venues.",
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: UnauthJobListResponseDto })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  async unauthJobsOf(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: UserPageQueryDto,
  ): Promise<{ success: true; data: UnauthJobDto[]; pagination: PaginationDto }> {
    return { success: true, ...(await this.unauthJobs.pageOfUser(token, id, toUserPageQuery(query))) };
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiStandardErrors({ body: true })
  @RequirePermission('write')
  @ApiOperation({ summary: 'Create a user', description: `Status starts active, devices empty. ${SCOPE}` })
  @Idempotent(PLAN_NOT_USABLE_HERE)
  @ApiCreatedResponse({
    type: HotspotUserMessageResponseDto,
    headers: { ...LOCATION_HEADER, ...ETAG_HEADER, ...REPLAYED_RESPONSE_HEADER },
  })
  @ApiBadRequestResponse(VALIDATION_OF_WRITE)
  @ApiConflictResponse({
    description: `username, email or phone already used in one of the venues; or ${IN_PROGRESS}`,
    examples: { clash: CONFLICT_EXAMPLES.clash, inProgress: CONFLICT_EXAMPLES.inProgress },
    type: ErrorResponseDto,
  })
  async create(
    @CurrentToken() token: AuthenticatedToken,
    @Query() _query: NoQueryDto,
    @Body() body: CreateHotspotUserDto,
    @CurrentIdempotencyClaim() claim: IdempotencyClaim | null,
    @CurrentOrigin() origin: AuditOrigin,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ success: true; message: string; data: HotspotUserDto }> {
    const created = await this.users.create(token, toCreateInput(body), origin, idempotent(claim, createdAnswer));
    return sent(response, createdAnswer(created));
  }

  @Put(':id')
  @ApiStandardErrors({ body: true })
  @RequirePermission('write')
  @ApiOperation({
    summary: 'Update a user',
    description:
      'Send only the fields to change. Moving to blocked or expired ends the active sessions and writes an unauth job; ' +
      'taking venues from venueIds ends the sessions in those venues (with an unauth job of reason venue-removed when there were any). ' +
      SCOPE,
  })
  @ApiParam(ID_PARAM)
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: HotspotUserMessageResponseDto, headers: { ...ETAG_HEADER, ...UNAUTH_JOB_LINK_HEADER } })
  @ApiBadRequestResponse(VALIDATION_OF_WRITE)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({
    description: 'Expired users cannot be edited, or a uniqueness clash',
    type: ErrorResponseDto,
    examples: { expired: CONFLICT_EXAMPLES.expired, clash: CONFLICT_EXAMPLES.clash },
  })
  @ApiPreconditionFailedResponse(PRECONDITION)
  @ApiUnprocessableEntityResponse({ description: PLAN_NOT_USABLE_HERE, type: ErrorResponseDto })
  async update(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: VenueContextDto,
    @Body() body: UpdateHotspotUserDto,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentOrigin() origin: AuditOrigin,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ success: true; message: string; data: HotspotUserDto }> {
    const updated = await this.users.update(token, id, query, toUpdateInput(body), origin, precondition(ifMatch));
    response.setHeader('ETag', etagOf(updated.version));
    linkJobs(response, updated);
    return { success: true, message: SUCCESS_MESSAGES.updated, data: updated.data };
  }

  @Delete(':id')
  @RequirePermission('delete')
  @ApiOperation({
    summary: 'Delete a user',
    description: `Active sessions are ended with an unauth job first. ${SCOPE}`,
  })
  @ApiParam(ID_PARAM)
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: DeleteResponseDto, headers: UNAUTH_JOB_LINK_HEADER })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiPreconditionFailedResponse(PRECONDITION)
  async remove(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: VenueContextDto,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentOrigin() origin: AuditOrigin,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ success: true; message: string }> {
    linkJobs(response, await this.users.remove(token, id, query, origin, precondition(ifMatch)));
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
  @Idempotent()
  @ApiHeader(IF_MATCH)
  @ApiBody({ type: ExpireHotspotUserDto, required: false })
  @ApiOkResponse({
    type: ExpireResponseDto,
    headers: { ...ETAG_HEADER, ...UNAUTH_JOB_LINK_HEADER, ...REPLAYED_RESPONSE_HEADER },
  })
  @ApiBadRequestResponse(VALIDATION)
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({
    description: `Only when ${IN_PROGRESS}`,
    type: ErrorResponseDto,
    example: CONFLICT_EXAMPLES.inProgress.value,
  })
  @ApiPreconditionFailedResponse(PRECONDITION)
  async expire(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() _query: NoQueryDto,
    @Body() body: ExpireHotspotUserDto,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentIdempotencyClaim() claim: IdempotencyClaim | null,
    @CurrentOrigin() origin: AuditOrigin,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ success: true; message: string; data: ExpireResult }> {
    const expired = await this.users.expire(
      token,
      id,
      body,
      origin,
      precondition(ifMatch),
      idempotent(claim, expiredAnswer),
    );
    return sent(response, expiredAnswer(expired));
  }
}

/** An answer with its body typed as the route returns it. */
type RouteAnswer<B> = HttpAnswer & { body: B };

function createdAnswer({ data, version }: Versioned<HotspotUserDto>): RouteAnswer<{
  success: true;
  message: string;
  data: HotspotUserDto;
}> {
  return {
    status: HttpStatus.CREATED,
    headers: { Location: `/${API_V1}/hotspot-users/${data._id}`, ETag: etagOf(version) },
    body: { success: true, message: SUCCESS_MESSAGES.created, data },
  };
}

/** Kept with an Idempotency-Key, Link included: a replay names the same jobs. */
function expiredAnswer({ data, version, unauthJobIds }: Versioned<ExpireResult> & WroteJobs): RouteAnswer<{
  success: true;
  message: string;
  data: ExpireResult;
}> {
  const link = unauthJobLinks(unauthJobIds);
  return {
    status: HttpStatus.OK,
    headers: { ETag: etagOf(version), ...(link === null ? {} : { Link: link }) },
    body: { success: true, message: SUCCESS_MESSAGES.expired, data },
  };
}

/** Names the unauth jobs the change wrote in a Link header; none, no header. */
function linkJobs(response: Response, { unauthJobIds }: WroteJobs): void {
  const link = unauthJobLinks(unauthJobIds);
  if (link !== null) response.setHeader('Link', link);
}

/** The answer's headers on the response, its body to return (the route's HTTP code is the answer's status). */
function sent<B>(response: Response, answer: RouteAnswer<B>): B {
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  return answer.body;
}

function idempotent<T>(claim: IdempotencyClaim | null, answer: (result: T) => HttpAnswer): IdempotentCall<T> | null {
  return claim === null ? null : { claim, answer };
}

/** The If-Match header, parsed; a malformed one is a 400 naming it, rather than a condition that never holds. */
function precondition(ifMatch: string | undefined): Precondition {
  if (ifMatch === undefined) return null;
  const parsed = parseIfMatch(ifMatch);
  if (parsed === null) throw ApiError.validation([{ field: 'If-Match', message: IF_MATCH_PROBLEM }]);
  return parsed;
}
