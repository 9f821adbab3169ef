import { Body, Controller, Headers, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { CurrentToken, RequirePermission } from '../auth/auth.decorators.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AdmittedRequest } from '../common/load/admission.middleware.js';
import type { Deadline } from '../common/load/deadline.js';
import { AccountingService } from './accounting.service.js';
import { AuthorizeService, reject } from './authorize.service.js';
import { LoginAttemptsService, REPLY_MESSAGE_HEADER, RESULT_HEADER } from './login-attempts.service.js';
import { NAS_IP_HEADER, NAS_NAME_HEADER, type RadiusNas } from './nas-identity.js';
import { RadiusNasResolver } from './radius-nas-resolver.js';
import { RadiusAttributes } from './radius-attributes.js';

/**
 * The back end of FreeRADIUS's rlm_rest (not part of the v1 API). The NAS is the client FreeRADIUS
 * authenticated (shortname and source address, passed as headers by the shipped configuration),
 * matched against the registry: never an attribute the user's device can influence. Each request
 * carries FreeRADIUS's deadline (the admission reads it): past it, no query or argon2id begins and
 * the answer is 503, which the generated configuration turns into no RADIUS answer at all.
 */
@ApiExcludeController()
@RequirePermission('radius')
@Controller('radius')
export class RadiusController {
  constructor(
    private readonly nasResolver: RadiusNasResolver,
    private readonly authorizeService: AuthorizeService,
    private readonly accounting: AccountingService,
    private readonly loginAttempts: LoginAttemptsService,
  ) {}

  /** 200 with Auth-Type Accept and the reply attributes, or 401 with a Reply-Message (FreeRADIUS rejects). */
  @Post('authorize')
  async authorize(
    @CurrentToken() token: AuthenticatedToken,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Body() body: unknown,
    @Req() request: AdmittedRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Record<string, unknown>> {
    const attributes = parse(body);
    const nas = await this.identify(token, headers, 'authorize', request.deadline);
    const answer =
      nas === null ? reject('unknownNas') : await this.authorizeService.authorize(nas, attributes, request.deadline);
    response.status(answer.status);
    return answer.body;
  }

  /**
   * 204 for every packet recorded or deliberately dropped, so FreeRADIUS acknowledges it; 403 for
   * an unknown NAS, so it does not (the NAS retransmits until its registration is fixed); 5xx when
   * the database failed.
   */
  @Post('accounting')
  @HttpCode(HttpStatus.NO_CONTENT)
  async account(
    @CurrentToken() token: AuthenticatedToken,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Body() body: unknown,
    @Req() request: AdmittedRequest,
  ): Promise<void> {
    const attributes = parse(body);
    const nas = await this.identify(token, headers, 'accounting', request.deadline);
    if (nas === null) throw ApiError.forbidden();
    await this.accounting.account(nas, attributes, request.deadline);
  }

  /**
   * 204 once recorded (400 for a malformed body, 503 when the database is busy): the shipped
   * configuration lets a failing post-auth pass, since it would otherwise turn an Accept into a Reject.
   */
  @Post('post-auth')
  @HttpCode(HttpStatus.NO_CONTENT)
  async postAuth(
    @CurrentToken() token: AuthenticatedToken,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Body() body: unknown,
    @Req() request: AdmittedRequest,
  ): Promise<void> {
    const attributes = parse(body);
    const nas = await this.identify(token, headers, 'post-auth', request.deadline);
    await this.loginAttempts.record(
      nas,
      attributes,
      { result: single(headers[RESULT_HEADER]), replyMessage: single(headers[REPLY_MESSAGE_HEADER]) },
      request.deadline,
    );
  }

  private identify(
    token: AuthenticatedToken,
    headers: Record<string, string | string[] | undefined>,
    section: string,
    deadline: Deadline,
  ): Promise<RadiusNas | null> {
    const name = single(headers[NAS_NAME_HEADER]);
    return this.nasResolver.resolve(token, name, single(headers[NAS_IP_HEADER]), section, deadline);
  }
}

function parse(body: unknown): RadiusAttributes {
  const parsed = RadiusAttributes.parse(body);
  if (Array.isArray(parsed)) throw ApiError.validation(parsed);
  return parsed;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}
