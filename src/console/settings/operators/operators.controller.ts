import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { actorOf } from '../../../audit/audit.rules.js';
import { GrantRefusedError, grantProblem } from '../../../auth/grant.rules.js';
import type { Permission } from '../../../auth/permissions.js';
import { OPERATOR_PERMISSIONS, type OperatorView } from '../../../operators/operator-rules.js';
import {
  LastActiveAdminError,
  OperatorAmbiguousError,
  OperatorEmailTakenError,
  OperatorsService,
  OperatorValidationError,
  type CreatedOperator,
  type OperatorPasswordReset,
} from '../../../operators/operators.service.js';
import { SECRET_RESULT_MINUTES } from '../../../operators/console-form-tokens.service.js';
import { VenuesService } from '../../../venues/venues.service.js';
import { venueRestriction } from '../access-forms.js';
import { ConsolePages, operatorActor, originOf, requireAdmin, type SignedInOperator } from '../../console-page.js';
import { field, fieldValues } from '../../../web/forms.js';
import { PageRefusal } from '../../../web/errors.js';
import type { ConsoleRequest } from '../../console-request.js';
import { ConsoleScreen } from '../../console-screen.decorator.js';

const OPERATORS = '/admin/settings/operators';

/** The page of a one-time password a create or a reset made (`resultId`: the result the POST left for its session). */
function passwordUrl(operatorId: string, resultId: string): string {
  return `${OPERATORS}/${encodeURIComponent(operatorId)}/password/${encodeURIComponent(resultId)}`;
}

/** The confirmed actions on one operator, by the last part of their path. */
const ACTIONS = ['disable', 'enable', 'reset-2fa', 'reset-password'] as const;
type OperatorAction = (typeof ACTIONS)[number];

/** The operator form as typed, shown again with its problem. */
interface OperatorFormValues {
  email: string;
  name: string;
  permissions: string[];
  admin: boolean;
  scope: string;
  venues: string[];
  other: string;
}

/** The message key of a refusal of OperatorsService, by the field it names. */
const FIELD_PROBLEMS: Record<string, string> = {
  email: 'operators.problem.email',
  name: 'operators.problem.name',
  permissions: 'operators.problem.permissions',
  venueIds: 'operators.problem.venues',
  password: 'operators.problem.name',
};

/**
 * Settings → Operators (administrators): the operators, a new one with its one-time password shown
 * once, rights and venues, disable and enable, and resets of the second factor and the password,
 * through OperatorsService with the signed-in operator as the actor (its audit rows).
 */
@ConsoleScreen()
export class OperatorsController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly operators: OperatorsService,
    private readonly venues: VenuesService,
  ) {}

  @Get('settings/operators')
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    const operators = await this.operators.list();
    await this.pages.render(request, response, 200, 'settings/operators/list', { operators });
  }

  @Get('settings/operators/new')
  async newForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    const form = { email: '', name: '', permissions: ['read'], admin: false, scope: 'all', venues: [], other: '' };
    await this.showForm(request, response, 200, 'settings/operators/new', form, null, null);
  }

  @Post('settings/operators')
  async create(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const actor = requireAdmin(request);
    const form = this.formValues(request);
    const venueIds = venueRestriction(form.scope, form.venues, form.other, 'operators.problem.venues');
    if ('problem' in venueIds)
      return this.showForm(request, response, 422, 'settings/operators/new', form, null, venueIds.problem);
    const claim = this.pages.claim<CreatedOperator>(request, (created, resultId) => ({
      link: passwordUrl(created.operator.id, resultId),
      details: { operatorId: created.operator.id, created: true },
      ...(created.oneTimePassword === null ? {} : { secret: created.oneTimePassword }),
    }));
    let created: CreatedOperator;
    try {
      created = await this.operators.create(
        {
          email: form.email,
          name: form.name,
          permissions: form.permissions as Permission[],
          venueIds: venueIds.value,
          admin: form.admin,
        },
        this.auditActor(request, actor),
        operatorActor(actor),
        claim,
      );
    } catch (error) {
      const problem = this.problemOf(error);
      return this.showForm(request, response, 422, 'settings/operators/new', form, null, problem);
    }
    // Post/Redirect/Get: a reload shows the one-time password again (for its window), never a second operator.
    response.redirect(303, passwordUrl(created.operator.id, claim.resultId));
  }

  /**
   * The one-time password a create or a reset left for this session, while the result's window lasts
   * (SECRET_RESULT_MINUTES), with until when it works.
   */
  @Get('settings/operators/:id/password/:result')
  async password(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Param('result') resultId: string,
  ): Promise<void> {
    requireAdmin(request);
    const result = await this.pages.result(request, resultId);
    if (result.details.operatorId !== id) throw new PageRefusal(404, 'error.notFound');
    const target = await this.find(id);
    await this.pages.render(request, response, 200, 'settings/operators/password', {
      target,
      password: typeof result.secret === 'string' ? result.secret : null,
      created: result.details.created === true,
      until: result.until,
      minutes: SECRET_RESULT_MINUTES,
    });
  }

  @Get('settings/operators/:id')
  async editForm(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    requireAdmin(request);
    const target = await this.find(id);
    const restricted = target.venueIds !== null;
    const form: OperatorFormValues = {
      email: target.email,
      name: target.name,
      permissions: target.permissions,
      admin: target.admin,
      scope: restricted ? 'some' : 'all',
      venues: target.venueIds ?? [],
      other: '',
    };
    await this.showForm(request, response, 200, 'settings/operators/edit', form, target, null);
  }

  @Post('settings/operators/:id')
  async change(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const actor = requireAdmin(request);
    const target = await this.find(id);
    const form = { ...this.formValues(request), email: target.email };
    const venueIds = venueRestriction(form.scope, form.venues, form.other, 'operators.problem.venues');
    if ('problem' in venueIds)
      return this.showForm(request, response, 422, 'settings/operators/edit', form, target, venueIds.problem);
    if (field(request, 'confirm') !== 'yes') {
      return this.showForm(
        request,
        response,
        422,
        'settings/operators/edit',
        form,
        target,
        'operators.problem.confirm',
      );
    }
    try {
      const result = await this.operators.changeRights(
        target.id,
        { name: form.name, permissions: form.permissions as Permission[], venueIds: venueIds.value, admin: form.admin },
        this.auditActor(request, actor),
        operatorActor(actor),
        this.pages.claim(request, { link: `${OPERATORS}/${target.id}` }),
      );
      if (result === null) throw new PageRefusal(404, 'error.notFound');
      const notice = result.changedFields.length === 0 ? 'notice.operators.unchanged' : 'notice.operators.changed';
      response.redirect(303, `${OPERATORS}/${target.id}?notice=${notice}`);
    } catch (error) {
      if (error instanceof PageRefusal) throw error;
      await this.showForm(request, response, 422, 'settings/operators/edit', form, target, this.problemOf(error));
    }
  }

  @Get('settings/operators/:id/:action')
  async confirm(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Param('action') action: string,
  ): Promise<void> {
    requireAdmin(request);
    const kind = this.action(action);
    const target = await this.find(id);
    await this.pages.render(request, response, 200, 'settings/operators/confirm', {
      target,
      action: kind,
      problem: null,
    });
  }

  @Post('settings/operators/:id/:action')
  async act(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Param('action') action: string,
  ): Promise<void> {
    const actor = requireAdmin(request);
    const kind = this.action(action);
    const target = await this.find(id);
    const auditActor = this.auditActor(request, actor);
    const grantor = operatorActor(actor);
    // Only an operator within the administrator's own rights: a reset of a stronger one's password
    // or second factor would be a way into its rights.
    if (grantProblem(grantor, target) !== null) throw new PageRefusal(403, 'grant.refused');
    const link = `${OPERATORS}/${target.id}`;
    try {
      switch (kind) {
        case 'disable':
          await this.operators.disable(target.id, auditActor, grantor, this.pages.claim(request, { link }));
          break;
        case 'enable':
          await this.operators.enable(target.id, auditActor, grantor, this.pages.claim(request, { link }));
          break;
        case 'reset-2fa':
          await this.operators.resetTotp(target.id, auditActor, grantor, this.pages.claim(request, { link }));
          break;
        case 'reset-password': {
          const passwordClaim = this.pages.claim<OperatorPasswordReset | null>(request, (reset, resultId) =>
            reset === null
              ? { link }
              : {
                  link: passwordUrl(target.id, resultId),
                  details: { operatorId: target.id, created: false },
                  secret: reset.oneTimePassword,
                },
          );
          const reset = await this.operators.resetPassword(target.id, auditActor, grantor, passwordClaim);
          if (reset === null) throw new PageRefusal(404, 'error.notFound');
          // Post/Redirect/Get: the one-time password is on a page a reload shows again (for its window).
          response.redirect(303, passwordUrl(target.id, passwordClaim.resultId));
          return;
        }
      }
    } catch (error) {
      if (!(error instanceof LastActiveAdminError)) throw error;
      await this.pages.render(request, response, 409, 'settings/operators/confirm', {
        target,
        action: kind,
        problem: 'operators.problem.lastAdmin',
      });
      return;
    }
    response.redirect(303, `${OPERATORS}/${target.id}?notice=notice.operators.${kind}`);
  }

  private action(raw: string): OperatorAction {
    if (!(ACTIONS as readonly string[]).includes(raw)) throw new PageRefusal(404, 'error.notFound');
    return raw as OperatorAction;
  }

  /** An operator by id (an email in a URL is not looked up); 404 when none has it. */
  private async find(id: string): Promise<OperatorView> {
    const target = id.length <= 64 ? await this.operators.get(id) : null;
    if (target === null) throw new PageRefusal(404, 'error.notFound');
    return target;
  }

  private auditActor(request: ConsoleRequest, operator: SignedInOperator) {
    return actorOf(operatorActor(operator), originOf(request));
  }

  private formValues(request: ConsoleRequest): OperatorFormValues {
    return {
      email: field(request, 'email'),
      name: field(request, 'name'),
      permissions: fieldValues(request, 'permissions'),
      admin: field(request, 'admin') === 'yes',
      scope: field(request, 'scope'),
      venues: fieldValues(request, 'venues'),
      other: field(request, 'other'),
    };
  }

  private problemOf(error: unknown): string {
    if (error instanceof OperatorValidationError) return FIELD_PROBLEMS[error.field] ?? 'error.invalid';
    if (error instanceof OperatorEmailTakenError) return 'operators.problem.emailTaken';
    if (error instanceof LastActiveAdminError) return 'operators.problem.lastAdmin';
    if (error instanceof OperatorAmbiguousError) return 'error.conflict';
    if (error instanceof GrantRefusedError) return 'grant.refused';
    throw error;
  }

  private async showForm(
    request: ConsoleRequest,
    response: Response,
    status: number,
    view: string,
    form: OperatorFormValues,
    target: OperatorView | null,
    problem: string | null,
  ): Promise<void> {
    const registered = (await this.venues.list()).map((venue) => venue.id);
    // Venues of the operator that are not registered are ticked too, so saving keeps them.
    const offered = [...registered, ...form.venues.filter((id) => !registered.includes(id))];
    await this.pages.render(request, response, status, view, {
      form,
      target,
      problem,
      permissions: OPERATOR_PERMISSIONS,
      offered,
    });
  }
}
