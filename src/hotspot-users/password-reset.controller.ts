import { Body, Controller, Headers, HttpCode, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPreconditionFailedResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentOrigin } from '../audit/audit-origin.decorator.js';
import type { AuditOrigin } from '../audit/audit.rules.js';
import { CurrentToken, RequirePermission } from '../auth/auth.decorators.js';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { API_V1 } from '../common/api-paths.js';
import { ApiError, ERROR_MESSAGES } from '../common/errors/api-error.js';
import { ApiStandardErrors, ErrorResponseDto } from '../common/swagger/error-response.dto.js';
import {
  CurrentIdempotencyClaim,
  Idempotent,
  REPLAYED_RESPONSE_HEADER,
} from '../idempotency/idempotency.decorators.js';
import { IDEMPOTENCY_MESSAGES, type HttpAnswer } from '../idempotency/idempotency.rules.js';
import type { IdempotencyClaim } from '../idempotency/idempotency.service.js';
import { VenueContextDto } from './dto/hotspot-user-queries.dto.js';
import type { HotspotUserDto } from './dto/hotspot-user.response.js';
import { PasswordResetResponseDto, ResetPasswordDto, toPasswordResetInput } from './dto/reset-password.dto.js';
import { etagOf, IF_MATCH_PROBLEM, parseIfMatch, PRECONDITION_FAILED } from './hotspot-user.etag.js';
import { callerOf, PasswordResetService, type PasswordResetResult } from './password-reset.service.js';
import { UNAUTH_JOB_LINK_HEADER, unauthJobLinks } from './unauth-job-link.js';
import type { Precondition } from './user-access.js';

export const PASSWORD_RESET_MESSAGE = 'Kullanıcının şifresi başarıyla değiştirildi';

interface PasswordResetBody {
  success: true;
  message: string;
  data: HotspotUserDto;
  password?: string;
}

/** POST /api/v1/hotspot-users/:id/password: an addition to v1 (PUT keeps refusing `password`). */
@ApiTags('hotspot-users')
@ApiStandardErrors({ body: true })
@Controller(`${API_V1}/hotspot-users`)
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  @Post(':id/password')
  @HttpCode(HttpStatus.OK)
  @RequirePermission('write')
  @ApiOperation({
    summary: "Reset a user's password (an addition to v1)",
    description:
      'Body: `{"password": "…"}` or `{"generate": true}` (the generated password is answered once, in `password`), ' +
      'and optionally `"endSessions": true`. Only for username_password users (another login method: 400 naming the ' +
      'field sent). The new password counts from the next login on every instance; running sessions go on unless ' +
      'endSessions is true: then they end as a block ends them, with an unauth job of reason password-reset. ' +
      'With an Idempotency-Key, a replay answers the user without the generated password. Same venue rules as PUT: ' +
      'a venue-restricted token gets 403 for a venue outside its venues and for a user it does not fully cover.',
  })
  @ApiParam({ name: 'id', description: 'The user identifier (opaque string); anything unknown is a 404' })
  @Idempotent()
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      'Change only if the user still has this ETag (`*`: if it exists); otherwise 412 and nothing changes. ' +
      'Malformed: 400.',
    schema: { type: 'string' },
  })
  @ApiOkResponse({
    type: PasswordResetResponseDto,
    headers: {
      ETag: {
        description: 'Strong validator of the user after the reset, e.g. `"v4"`',
        schema: { type: 'string' },
      },
      ...UNAUTH_JOB_LINK_HEADER,
      ...REPLAYED_RESPONSE_HEADER,
    },
  })
  @ApiBadRequestResponse({
    description:
      'Validation error: `errors` names each field (password or generate missing, both sent, unknown fields, a ' +
      'password outside 4-128 characters; `password` or `generate` for a user whose login method has no password)',
    type: ErrorResponseDto,
  })
  @ApiNotFoundResponse({
    description: 'Kullanıcı bulunamadı: unknown id, or not visible to this token',
    type: ErrorResponseDto,
  })
  @ApiConflictResponse({
    description: 'The user is expired (expired users cannot be edited), or the same Idempotency-Key is in progress',
    type: ErrorResponseDto,
    examples: {
      expired: {
        summary: 'the user is expired',
        value: { success: false, message: ERROR_MESSAGES.expiredUserNotEditable },
      },
      inProgress: {
        summary: 'the same Idempotency-Key is in progress',
        value: { success: false, message: IDEMPOTENCY_MESSAGES.inProgress },
      },
    },
  })
  @ApiPreconditionFailedResponse({
    description: `${PRECONDITION_FAILED}: the user changed since the If-Match ETag`,
    type: ErrorResponseDto,
  })
  async reset(
    @CurrentToken() token: AuthenticatedToken,
    @Param('id') id: string,
    @Query() query: VenueContextDto,
    @Body() body: ResetPasswordDto,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentIdempotencyClaim() claim: IdempotencyClaim | null,
    @CurrentOrigin() origin: AuditOrigin,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PasswordResetBody> {
    const result = await this.resets.reset(
      callerOf(token),
      id,
      query,
      toPasswordResetInput(body),
      origin,
      precondition(ifMatch),
      claim === null ? null : { claim, answer: keptAnswer },
    );
    const answer = keptAnswer(result);
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    // The generated password is in this answer only: the kept one (keptAnswer) leaves it out.
    return result.password === null ? answer.body : { ...answer.body, password: result.password };
  }
}

/** The answer without the generated password: what an Idempotency-Key keeps and replays. */
function keptAnswer({ data, version, unauthJobIds }: PasswordResetResult): HttpAnswer & { body: PasswordResetBody } {
  const link = unauthJobLinks(unauthJobIds);
  return {
    status: HttpStatus.OK,
    headers: { ETag: etagOf(version), ...(link === null ? {} : { Link: link }) },
    body: { success: true, message: PASSWORD_RESET_MESSAGE, data },
  };
}

function precondition(ifMatch: string | undefined): Precondition {
  if (ifMatch === undefined) return null;
  const parsed = parseIfMatch(ifMatch);
  if (parsed === null) throw ApiError.validation([{ field: 'If-Match', message: IF_MATCH_PROBLEM }]);
  return parsed;
}
