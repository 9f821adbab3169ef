import { randomBytes } from 'node:crypto';
import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError, type FieldError } from '../../common/errors/api-error.js';
import { createValidationPipe } from '../../common/pipes/validation.pipe.js';
import { CreateHotspotUserDto } from '../../hotspot-users/dto/create-hotspot-user.dto.js';
import type { HotspotUserDto } from '../../hotspot-users/dto/hotspot-user.response.js';
import { SECRET_RESULT_MINUTES } from '../../operators/console-form-tokens.service.js';
import { DEFAULT_LIMIT } from '../../hotspot-users/dto/hotspot-user-queries.dto.js';
import { UpdateHotspotUserDto } from '../../hotspot-users/dto/update-hotspot-user.dto.js';
import { etagOf } from '../../hotspot-users/hotspot-user.etag.js';
import { toCreateInput, toUpdateInput } from '../../hotspot-users/hotspot-user.inputs.js';
import { generatedPassword, GENERATED_PASSWORD_RANDOM_BYTES } from '../../hotspot-users/hotspot-user.rules.js';
import { HotspotUsersService, type Versioned } from '../../hotspot-users/hotspot-users.service.js';
import { UserExportService } from '../../hotspot-users/user-export.service.js';
import { Clock } from '../../common/clock.js';
import { searchPrefixes } from '../../hotspot-users/user-search.rules.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { PlansService } from '../../plans/plans.service.js';
import { PageRefusal } from '../../web/errors.js';
import {
  ConsolePages,
  context,
  etagField,
  operatorActor,
  originOf,
  requirePermission,
  session,
  venueOf,
  type SignedInOperator,
  type VenueTimes,
} from '../console-page.js';
import { instantAsWallDateTime } from '../../web/zoned-time.js';
import { field, fieldValues, queryValue, textFields } from '../../web/forms.js';
import { SEARCH_QUERY_MAX_LENGTH } from '../../hotspot-users/user-search.rules.js';
import type { ConsoleRequest } from '../console-request.js';
import {
  createBody,
  createdUrl,
  formOf,
  listFilters,
  listUrl,
  rowMatch,
  updateBody,
  formFieldLength,
  hidesVouchers,
  STAY_CHOICES,
  stayChoiceOf,
  stayEnd,
  USER_ACTIONS,
  USER_FORM_FIELDS,
  userFormInputs,
  type StayChoice,
  type UserAction,
  venueIdsOf,
  pickedVenueIds,
  unconfirmedVenues,
  venuePicker,
  planChoices,
  userUrl,
  slipUrl,
  type FormProblem,
  type ShownProblem,
  type UserForm,
  apiFieldProblem,
  mergedProblems,
} from './users.rules.js';
import { ConsoleScreen } from '../console-screen.decorator.js';
import { usersCsvFilename, usersCsvHeader, usersCsvLines, usersExportUrl } from './users-export.rules.js';

const pipe = createValidationPipe();

/** A catalogue key made of parts (`users.status` + `blocked`), for views that pick a key by a value. */
const key = (...parts: string[]): string => parts.join('.');

/**
 * The users screen: the list of a venue with its search, create, edit, and the confirmed block,
 * unblock, expire and delete. Every change goes through HotspotUsersService with the operator as
 * the actor, so the venue rules, the transaction, the unauth jobs and the audit rows are the v1 API's.
 */
@ConsoleScreen()
export class ConsoleUsersController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly users: HotspotUsersService,
    private readonly exports: UserExportService,
    private readonly clock: Clock,
    private readonly sessions: SessionsService,
    private readonly plans: PlansService,
  ) {}

  @Get('users')
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const { operator } = session(request);
    const filters = listFilters({
      venueId: queryValue(request, 'venueId'),
      q: queryValue(request, 'q'),
      status: queryValue(request, 'status'),
      page: queryValue(request, 'page'),
      vouchers: queryValue(request, 'vouchers'),
    });
    const venueId = filters.venueId ?? (operator.venueIds !== null ? (operator.venueIds[0] ?? null) : null);
    let result: Awaited<ReturnType<HotspotUsersService['list']>> | null = null;
    const search = filters.q === '' ? null : searchPrefixes(filters.q);
    if (venueId !== null) {
      result = await this.users.list(operatorActor(operator), {
        venueId,
        status: filters.status,
        macAddress: null,
        search,
        excludeBatches: hidesVouchers(filters),
        page: filters.page,
        limit: DEFAULT_LIMIT,
      });
    }
    const users = result?.data ?? [];
    const online =
      venueId === null || users.length === 0
        ? new Set<string>()
        : await this.sessions.onlineUserIds(
            venueId,
            users.map((user) => user._id),
          );
    const pages = result?.pagination.pages ?? 0;
    // The names of the plans the page's users are on (one read, only when one of them is on a plan).
    const plans = users.some((user) => user.planId !== null)
      ? await this.plans.list(operatorActor(operator), venueId)
      : [];
    await this.pages.render(request, response, filters.problems.length > 0 ? 400 : 200, 'users/list', {
      planNames: new Map(plans.map((plan) => [plan._id, plan.name])),
      key,
      searchMaxLength: SEARCH_QUERY_MAX_LENGTH,
      venueId,
      venues: await this.pages.venueChoices(operator),
      unrestricted: operator.venueIds === null,
      filters,
      users,
      online,
      hidesVouchers: hidesVouchers(filters),
      withVouchers: listUrl({ ...filters, venueId, vouchers: true, page: 1 }),
      withoutVouchers: listUrl({ ...filters, venueId, vouchers: false, page: 1 }),
      matchOf: (user: HotspotUserDto) => rowMatch(search, user),
      pagination: result?.pagination ?? null,
      previous: filters.page > 1 ? listUrl({ ...filters, venueId, page: filters.page - 1 }) : null,
      next: filters.page < pages ? listUrl({ ...filters, venueId, page: filters.page + 1 }) : null,
      userUrl,
      exportUrl: venueId === null ? null : usersExportUrl(venueId),
    });
  }

  /**
   * A venue's users as CSV (users-export.rules.ts), written as it is read: a page of users at a time
   * (UserExportService), each page sent before the next is read, and none read while the client is
   * not taking what was sent. The first page is read before anything is sent, so a venue outside
   * the operator's is refused as a page (403), as the list refuses it.
   */
  @Get('users/export.csv')
  async exportCsv(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const { operator } = session(request);
    const actor = operatorActor(operator);
    const venueId = venueOf(queryValue(request, 'venueId'));
    if (venueId === null) throw new PageRefusal(400, 'error.invalid');
    let page = await this.exports.page(actor, venueId, null);
    response
      .status(200)
      .type('text/csv; charset=utf-8')
      .setHeader('Content-Disposition', `attachment; filename="${usersCsvFilename(venueId, this.clock.now())}"`)
      .setHeader('Cache-Control', 'no-store');
    let gone = false;
    response.on('close', () => {
      gone = true;
    });
    response.write(usersCsvHeader());
    for (;;) {
      if (!response.write(usersCsvLines(page.data)) && !gone) await sent(response);
      if (page.next === null || gone) break;
      try {
        page = await this.exports.page(actor, venueId, page.next);
      } catch {
        // The file is under way and its status sent: cut it short, so that it is not taken for whole.
        response.destroy();
        return;
      }
    }
    response.end();
  }

  @Get('users/new')
  async newUser(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requirePermission(request, 'write');
    const venueId = venueOf(queryValue(request, 'venueId'));
    const form = emptyForm();
    form.loginMethod = queryValue(request, 'loginMethod') === 'guest' ? 'guest' : 'username_password';
    form.venueIds = venueId ?? (session(request).operator.venueIds ?? []).join(', ');
    const times = await this.pages.venueTimes(
      venueId ?? venueIdsOf(form.venueIds)[0] ?? null,
      session(request).operator,
    );
    await this.pages.render(request, response, 200, 'users/new', {
      ...formView(form, false, times, null),
      ...(await this.picker(session(request).operator, form, venueId === null ? [] : [venueId], [])),
      problems: [],
      venueId,
    });
  }

  @Post('users/new')
  async create(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = requirePermission(request, 'write');
    const form = formFields(request);
    const venueId = venueOf(field(request, 'context'));
    const times = await this.pages.venueTimes(venueId ?? venueIdsOf(form.venueIds)[0] ?? null, operator);
    const stay = stayChoiceOf(field(request, 'stay'));
    if (stay !== null) form.expiresAt = stayWallTime(stay, times, null);
    const kept = venueId === null ? [] : [venueId];
    const unconfirmed = await this.unconfirmed(request, operator, form, kept);
    const again = async (status: number, problems: ShownProblem[]) =>
      this.pages.render(request, response, status, 'users/new', {
        ...formView({ ...form, password: '' }, false, times, null),
        ...(await this.picker(operator, form, kept, unconfirmed)),
        problems,
        venueId,
      });
    const { body, problems } = createBody(form, times.zone);
    let generated: string | null = null;
    if (form.loginMethod === 'username_password' && form.password === '') {
      generated = generatedPassword(randomBytes(GENERATED_PASSWORD_RANDOM_BYTES));
      body.password = generated;
    }
    // Every problem in one round: the form's own checks and the v1 validation of the rest together.
    const invalid = mergedProblems(problems.map(own), await validationProblems(body, CreateHotspotUserDto));
    if (invalid.length > 0 || unconfirmed.length > 0) return again(422, [...invalid, ...venueProblems(unconfirmed)]);
    // The venue the result page shows the user in: the one the operator came from, if the user is in it.
    const shownVenue = (created: Versioned<HotspotUserDto>) =>
      venueId !== null && created.data.venueIds.includes(venueId) ? venueId : (created.data.venueIds[0] ?? null);
    const claim = this.pages.claim<Versioned<HotspotUserDto>>(request, (created, resultId) => ({
      link: createdUrl(created.data._id, resultId, shownVenue(created)),
      details: { userId: created.data._id, generated: generated !== null },
      ...(generated === null ? {} : { secret: generated }),
    }));
    let created: Versioned<HotspotUserDto>;
    try {
      const dto = (await pipe.transform(body, {
        type: 'body',
        metatype: CreateHotspotUserDto,
      })) as CreateHotspotUserDto;
      created = await this.users.create(operatorActor(operator), toCreateInput(dto), originOf(request), null, claim);
    } catch (error) {
      const shown = apiProblems(error, [400, 403, 409, 422]);
      if (shown === null) throw error;
      return again(shown.status === 400 ? 422 : shown.status, shown.problems);
    }
    // Post/Redirect/Get: a reload shows the result again, never a second user.
    response.redirect(303, createdUrl(created.data._id, claim.resultId, shownVenue(created)));
  }

  /**
   * What a create made, for the session that made it: the user, and its generated password while
   * the result's window lasts (SECRET_RESULT_MINUTES), however often the page is loaded.
   */
  @Get('users/:id/created/:result')
  async created(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Param('result') resultId: string,
  ): Promise<void> {
    const operator = requirePermission(request, 'write');
    const result = await this.pages.result(request, resultId, id);
    const venueId = venueOf(queryValue(request, 'venueId'));
    const user = await this.users.get(operatorActor(operator), id, context(venueId));
    await this.pages.render(request, response, 200, 'users/created', {
      key,
      user: user.data,
      generated: result.details.generated === true,
      password: typeof result.secret === 'string' ? result.secret : null,
      until: result.until,
      minutes: SECRET_RESULT_MINUTES,
      userLink: userUrl(id, venueId),
      listLink: listUrl({ venueId }),
      slipLink: slipUrl(id, resultId, venueId),
    });
  }

  @Get('users/:id/edit')
  async edit(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    const venueId = venueOf(queryValue(request, 'venueId'));
    const current = await this.users.get(operatorActor(operator), id, context(venueId));
    if (current.data.status === 'expired') throw new PageRefusal(409, 'users.edit.expired');
    await this.renderEdit(request, response, 200, current, venueId, null, []);
  }

  @Post('users/:id/edit')
  async save(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    const actor = operatorActor(operator);
    const venueId = venueOf(field(request, 'context'));
    const precondition = etagField(request);
    const form = formFields(request);
    const current = await this.users.get(actor, id, context(venueId));
    if (current.data.status === 'expired') throw new PageRefusal(409, 'users.edit.expired');
    const times = await this.pages.venueTimes(venueId ?? current.data.venueIds[0] ?? null, operator);
    const stay = stayChoiceOf(field(request, 'stay'));
    if (stay !== null) form.expiresAt = stayWallTime(stay, times, current.data.expiresAt);
    form.venueIds = inStoredOrder(venueIdsOf(form.venueIds), current.data.venueIds).join(', ');
    const unconfirmed = await this.unconfirmed(request, operator, form, [
      ...(venueId === null ? [] : [venueId]),
      ...current.data.venueIds,
    ]);
    const again = (status: number, problems: ShownProblem[]) =>
      this.renderEdit(
        request,
        response,
        status,
        current,
        venueId,
        form,
        problems,
        field(request, 'etag'),
        false,
        unconfirmed,
      );
    const { body, problems } = updateBody(form, current.data, times.zone);
    const invalid = mergedProblems(problems.map(own), await validationProblems(body, UpdateHotspotUserDto));
    if (invalid.length > 0 || unconfirmed.length > 0) return again(422, [...invalid, ...venueProblems(unconfirmed)]);
    try {
      const dto = (await pipe.transform(body, {
        type: 'body',
        metatype: UpdateHotspotUserDto,
      })) as UpdateHotspotUserDto;
      const claim = this.pages.claim(request, { link: userUrl(id, venueId) });
      const input = toUpdateInput(dto);
      await this.users.update(actor, id, context(venueId), input, originOf(request), precondition, claim);
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 412) {
        // Changed by someone else since the form was opened: the record as it is now, nothing overwritten.
        const now = await this.users.get(actor, id, context(venueId));
        return this.renderEdit(request, response, 412, now, venueId, null, [], undefined, true);
      }
      if (error instanceof ApiError && error.getStatus() === 409 && error.body.errors === undefined) {
        throw new PageRefusal(409, 'users.edit.expired');
      }
      const shown = apiProblems(error, [400, 403, 409, 422]);
      if (shown === null) throw error;
      return again(shown.status === 400 ? 422 : shown.status, shown.problems);
    }
    response.redirect(303, userUrl(id, venueId, 'notice.users.updated'));
  }

  @Get('users/:id/block')
  confirmBlock(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.confirm(request, response, id, 'block');
  }

  @Post('users/:id/block')
  block(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.act(request, response, id, 'block');
  }

  @Get('users/:id/unblock')
  confirmUnblock(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.confirm(request, response, id, 'unblock');
  }

  @Post('users/:id/unblock')
  unblock(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.act(request, response, id, 'unblock');
  }

  @Get('users/:id/expire')
  confirmExpire(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.confirm(request, response, id, 'expire');
  }

  @Post('users/:id/expire')
  expire(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.act(request, response, id, 'expire');
  }

  @Get('users/:id/delete')
  confirmDelete(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.confirm(request, response, id, 'delete');
  }

  @Post('users/:id/delete')
  remove(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.act(request, response, id, 'delete');
  }

  /** What the action will do, with its form; a user already in the state the action leads to has nothing to confirm. */
  private async confirm(request: ConsoleRequest, response: Response, id: string, action: UserAction): Promise<void> {
    const operator = requirePermission(request, USER_ACTIONS[action].permission);
    const actor = operatorActor(operator);
    const venueId = venueOf(queryValue(request, 'venueId'));
    const current = await this.users.get(actor, id, context(venueId));
    const status = current.data.status;
    const fits =
      action === 'delete' ||
      (action === 'block' && status === 'active') ||
      (action === 'unblock' && status === 'blocked') ||
      (action === 'expire' && status !== 'expired');
    if (!fits) throw new PageRefusal(409, `users.${action}.notNow`);
    const sessions = await this.users.sessionsOf(actor, id, {
      venueId: venueId ?? undefined,
      ended: false,
      page: 1,
      limit: 1,
    });
    await this.pages.render(request, response, 200, 'users/confirm', {
      key,
      action,
      user: current.data,
      etag: etagOf(current.version),
      venueId,
      activeSessions: action === 'unblock' ? 0 : sessions.pagination.total,
      back: userUrl(id, venueId),
    });
  }

  /** Does a confirmed action through the v1 API's service calls, with the ETag the confirmation page showed. */
  private async act(request: ConsoleRequest, response: Response, id: string, action: UserAction): Promise<void> {
    const operator = requirePermission(request, USER_ACTIONS[action].permission);
    const actor = operatorActor(operator);
    const venueId = venueOf(field(request, 'context'));
    const precondition = etagField(request);
    const origin = originOf(request);
    const claim = this.pages.claim(request, {
      link: action === 'delete' ? listUrl({ venueId }) : userUrl(id, venueId),
    });
    if (action === 'block' || action === 'unblock') {
      const status = action === 'block' ? 'blocked' : 'active';
      await this.users.update(actor, id, context(venueId), { status }, origin, precondition, claim);
    } else if (action === 'expire') {
      await this.users.expire(actor, id, context(venueId), origin, precondition, null, claim);
    } else {
      await this.users.remove(actor, id, context(venueId), origin, precondition, claim);
      response.redirect(
        303,
        `${listUrl({ venueId })}${venueId === null ? '?' : '&'}notice=${USER_ACTIONS[action].notice}`,
      );
      return;
    }
    response.redirect(303, userUrl(id, venueId, USER_ACTIONS[action].notice));
  }

  /**
   * The venue picker of the user form: its checkboxes, the ids typed, and the unregistered ones to
   * confirm; and the plans offered in the form's venues.
   */
  private async picker(operator: SignedInOperator, form: UserForm, kept: string[], unconfirmed: string[]) {
    const registered = await this.pages.registeredVenueIds();
    const plans = await this.plans.list(operatorActor(operator), null);
    const { choices, typed } = venuePicker(
      venueIdsOf(form.venueIds),
      await this.pages.venueChoices(operator),
      kept,
      registered,
    );
    return {
      venueChoices: choices,
      typedVenues: typed.join(', '),
      unrestricted: operator.venueIds === null,
      unconfirmed,
      planChoices: planChoices(plans, venueIdsOf(form.venueIds), form.planId),
    };
  }

  /**
   * The unregistered venues an operator of every venue typed into the form and has not confirmed
   * (the checkbox `unregistered` the form shows with them); `kept`: the ones that need no confirming.
   * An operator of some venues is offered those alone, and the service refuses any other (403).
   */
  private async unconfirmed(
    request: ConsoleRequest,
    operator: SignedInOperator,
    form: UserForm,
    kept: string[],
  ): Promise<string[]> {
    if (operator.venueIds !== null || field(request, 'unregistered') === 'yes') return [];
    return unconfirmedVenues(venueIdsOf(form.venueIds), kept, await this.pages.registeredVenueIds());
  }

  private async renderEdit(
    request: ConsoleRequest,
    response: Response,
    status: number,
    current: { data: HotspotUserDto; version: number },
    venueId: string | null,
    typed: UserForm | null,
    problems: ShownProblem[],
    etag?: string,
    changed = false,
    unconfirmed: string[] = [],
  ): Promise<void> {
    const operator = session(request).operator;
    const times = await this.pages.venueTimes(venueId ?? current.data.venueIds[0] ?? null, operator);
    const form = typed ?? formOf(current.data, times.zone);
    const kept = [...(venueId === null ? [] : [venueId]), ...current.data.venueIds];
    await this.pages.render(request, response, status, 'users/edit', {
      ...formView(form, true, times, current.data.expiresAt),
      ...(await this.picker(operator, form, kept, unconfirmed)),
      user: current.data,
      etag: etag ?? etagOf(current.version),
      venueId,
      problems,
      changed,
      back: userUrl(current.data._id, venueId),
    });
  }
}

/** Until what was written is taken by the client (drain), or the client is gone (close). */
function sent(response: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

function emptyForm(): UserForm {
  return textFields(USER_FORM_FIELDS, () => '');
}

/** The form as sent; its venues are the ones ticked in the picker and the ones typed. */
function formFields(request: ConsoleRequest): UserForm {
  const form = textFields(USER_FORM_FIELDS, (name) => field(request, name, formFieldLength(name)));
  form.venueIds = pickedVenueIds(fieldValues(request, 'venue'), form.venueIds).join(', ');
  return form;
}

/** The problem of unregistered venues to confirm, beside the venues (the picker names them). */
function venueProblems(unconfirmed: string[]): ShownProblem[] {
  return unconfirmed.length === 0 ? [] : [{ field: 'venueIds', key: 'users.problem.unregistered', text: null }];
}

/** `picked` in the order the user's venues are stored, when it holds the same venues (the picker's order is not a change). */
function inStoredOrder(picked: string[], stored: string[]): string[] {
  const same = picked.length === stored.length && picked.every((id) => stored.includes(id));
  return same ? stored : picked;
}

function own(problem: FormProblem): ShownProblem {
  return { field: problem.field, key: problem.key, text: null };
}

/** What the user form's templates need besides the page's own data: the values, the inputs shown, the field names. */
function formView(form: UserForm, editing: boolean, times: VenueTimes, currentExpiry: string | null) {
  return {
    key,
    form,
    inputs: userFormInputs(form.loginMethod, editing),
    fields: USER_FORM_FIELDS,
    formZone: times.zone,
    stays: STAY_CHOICES.map((choice) => ({
      value: choice,
      at: stayWallTime(choice, times, currentExpiry).replace('T', ' '),
    })),
  };
}

/** The end of a stay as the form's expiry field holds it: a wall time in the venue's zone. */
function stayWallTime(choice: StayChoice, times: VenueTimes, currentExpiry: string | null): string {
  const expiry = currentExpiry === null ? null : new Date(currentExpiry);
  const end = stayEnd(choice, times.now, times.zone, times.checkOutTime, expiry);
  return end === null ? '' : instantAsWallDateTime(end.toISOString(), times.zone);
}

/** The v1 refusal as problems to show on the form, if it is one of `statuses`; null for anything else. */
function apiProblems(error: unknown, statuses: number[]): { status: number; problems: ShownProblem[] } | null {
  if (!(error instanceof ApiError) || !statuses.includes(error.getStatus())) return null;
  const status = error.getStatus();
  const errors: FieldError[] = error.body.errors ?? [];
  const problems: ShownProblem[] =
    errors.length > 0
      ? mergedProblems(
          [],
          errors.map((e) => apiFieldProblem(status, e.field, e.message)),
        )
      : [{ field: null, key: null, text: error.body.message }];
  return { status, problems };
}

/** What the v1 validation refuses in `body` (every field at once), in the form's words; none when it passes. */
async function validationProblems(
  body: Record<string, unknown>,
  metatype: typeof CreateHotspotUserDto | typeof UpdateHotspotUserDto,
): Promise<ShownProblem[]> {
  try {
    await pipe.transform(body, { type: 'body', metatype });
    return [];
  } catch (error) {
    const shown = apiProblems(error, [400]);
    if (shown === null) throw error;
    return shown.problems;
  }
}
