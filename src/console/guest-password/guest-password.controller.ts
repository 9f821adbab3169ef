import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError, type FieldError } from '../../common/errors/api-error.js';
import { createValidationPipe } from '../../common/pipes/validation.pipe.js';
import type { HotspotUserDto } from '../../hotspot-users/dto/hotspot-user.response.js';
import { ResetPasswordDto, toPasswordResetInput } from '../../hotspot-users/dto/reset-password.dto.js';
import { etagOf } from '../../hotspot-users/hotspot-user.etag.js';
import { HotspotUsersService } from '../../hotspot-users/hotspot-users.service.js';
import {
  callerOf,
  PasswordResetService,
  type PasswordResetResult,
} from '../../hotspot-users/password-reset.service.js';
import { SECRET_RESULT_MINUTES } from '../../operators/console-form-tokens.service.js';
import { PageRefusal } from '../../web/errors.js';
import {
  ConsolePages,
  context,
  etagField,
  operatorActor,
  originOf,
  requirePermission,
  venueOf,
} from '../console-page.js';
import { field, queryValue } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { pathId } from '../network/network-request.js';
import { slipUrl, userUrl } from '../users/users.rules.js';
import { ConsoleScreen } from '../console-screen.decorator.js';

const pipe = createValidationPipe();

/** The form as typed: the choice, the typed password (never shown again), the checkbox. */
interface ResetForm {
  mode: 'generate' | 'type';
  endSessions: boolean;
}

/** A problem shown on the form: a catalogue key (the console's own) or the v1 message as it is. */
interface ShownProblem {
  key: string | null;
  text: string | null;
}

/**
 * A user's password reset (from the user's page): the choice of a generated or a typed password and
 * whether the guest's sessions end now, then the generated password shown once. It goes through
 * PasswordResetService with the operator as the actor, as POST /api/v1/hotspot-users/:id/password does.
 */
@ConsoleScreen()
export class PasswordController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly users: HotspotUsersService,
    private readonly resets: PasswordResetService,
  ) {}

  @Get('users/:id/password')
  async form(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: unknown): Promise<void> {
    const operator = requirePermission(request, 'write');
    const venueId = venueOf(queryValue(request, 'venueId'));
    const current = await this.users.get(operatorActor(operator), pathId(id), context(venueId));
    assertResettable(current.data);
    await this.render(request, response, 200, current, venueId, { mode: 'generate', endSessions: false }, []);
  }

  @Post('users/:id/password')
  async reset(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: unknown): Promise<void> {
    const operator = requirePermission(request, 'write');
    const actor = operatorActor(operator);
    const userId = pathId(id);
    const venueId = venueOf(field(request, 'context'));
    const precondition = etagField(request);
    const form: ResetForm = {
      mode: field(request, 'mode') === 'type' ? 'type' : 'generate',
      endSessions: field(request, 'endSessions') === 'yes',
    };
    const again = async (status: number, problems: ShownProblem[], changed = false) => {
      const current = await this.users.get(actor, userId, context(venueId));
      assertResettable(current.data);
      await this.render(request, response, status, current, venueId, form, problems, changed);
    };
    const body =
      form.mode === 'generate'
        ? { generate: true, endSessions: form.endSessions }
        : { password: field(request, 'password'), endSessions: form.endSessions };
    let dto: ResetPasswordDto;
    try {
      dto = (await pipe.transform(body, { type: 'body', metatype: ResetPasswordDto })) as ResetPasswordDto;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return again(422, problemsOf(error));
    }
    const claim = this.pages.claim<PasswordResetResult>(request, (reset, resultId) =>
      reset.password === null
        ? { link: userUrl(userId, venueId) }
        : {
            link: doneUrl(userId, resultId, venueId),
            details: { userId, endedSessions: reset.endedSessions, ended: form.endSessions },
            secret: reset.password,
          },
    );
    let result: PasswordResetResult;
    try {
      result = await this.resets.reset(
        callerOf(actor),
        userId,
        context(venueId),
        toPasswordResetInput(dto),
        originOf(request),
        precondition,
        null,
        claim,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Changed by someone else since the page was opened: the page again, with the record as it is now.
      if (error.getStatus() === 412) return again(412, [], true);
      if (error.getStatus() === 409 && error.body.errors === undefined) {
        throw new PageRefusal(409, 'guestPassword.expired');
      }
      if (error.getStatus() === 400) return again(422, problemsOf(error));
      throw error;
    }
    if (result.password === null) {
      response.redirect(303, userUrl(userId, venueId, 'notice.guestPassword.reset'));
      return;
    }
    // Post/Redirect/Get: the generated password is on a page a reload shows again (for its window).
    response.redirect(303, doneUrl(userId, claim.resultId, venueId));
  }

  /** The generated password a reset left for this session, while its window lasts (SECRET_RESULT_MINUTES). */
  @Get('users/:id/password/:result')
  async done(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: unknown,
    @Param('result') resultId: string,
  ): Promise<void> {
    const operator = requirePermission(request, 'write');
    const userId = pathId(id);
    const result = await this.pages.result(request, resultId, userId);
    const venueId = venueOf(queryValue(request, 'venueId'));
    const current = await this.users.get(operatorActor(operator), userId, context(venueId));
    await this.pages.render(request, response, 200, 'guest-password/done', {
      user: current.data,
      password: typeof result.secret === 'string' ? result.secret : null,
      until: result.until,
      minutes: SECRET_RESULT_MINUTES,
      endedSessions: result.details.endedSessions ?? 0,
      ended: result.details.ended === true,
      back: userUrl(userId, venueId),
      slipLink: slipUrl(userId, resultId, venueId),
    });
  }

  private async render(
    request: ConsoleRequest,
    response: Response,
    status: number,
    current: { data: HotspotUserDto; version: number },
    venueId: string | null,
    form: ResetForm,
    problems: ShownProblem[],
    changed = false,
  ): Promise<void> {
    await this.pages.render(request, response, status, 'guest-password/form', {
      user: current.data,
      etag: etagOf(current.version),
      venueId,
      form,
      problems,
      changed,
      back: userUrl(current.data._id, venueId),
    });
  }
}

/** The page of a reset's generated password (`resultId`: the result the POST left for its session). */
function doneUrl(userId: string, resultId: string, venueId: string | null): string {
  const query = venueId === null ? '' : `?${new URLSearchParams({ venueId }).toString()}`;
  return `/admin/users/${encodeURIComponent(userId)}/password/${encodeURIComponent(resultId)}${query}`;
}

/** Only an active or blocked username_password user has a password to reset. */
function assertResettable(user: HotspotUserDto): void {
  if (user.status === 'expired') throw new PageRefusal(409, 'guestPassword.expired');
  if (user.loginMethod !== 'username_password') throw new PageRefusal(409, 'guestPassword.noPassword');
}

/** The v1 refusal's messages, shown as they are (they never hold the password). */
function problemsOf(error: ApiError): ShownProblem[] {
  const errors: FieldError[] = error.body.errors ?? [];
  if (errors.length === 0) return [{ key: null, text: error.body.message }];
  return errors.map((entry) => ({ key: null, text: entry.message }));
}
