import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError } from '../../../common/errors/api-error.js';
import type { PlanDto } from '../../../plans/dto/plan.response.js';
import { QUOTA_PERIODS } from '../../../plans/plan-limits.js';
import { PlansService } from '../../../plans/plans.service.js';
import { PageRefusal } from '../../../web/errors.js';
import { field, fieldValues, queryValue, textFields } from '../../../web/forms.js';
import {
  ConsolePages,
  operatorActor,
  originOf,
  requirePermission,
  session,
  venueOf,
  type SignedInOperator,
} from '../../console-page.js';
import type { ConsoleRequest } from '../../console-request.js';
import { ConsoleScreen } from '../../console-screen.decorator.js';
import {
  emptyPlanForm,
  limitWords,
  PLAN_FORM_FIELDS,
  planApiProblem,
  planFieldsOf,
  planFormOf,
  planVenueChoices,
  QUOTA_UNITS,
  type PlanForm,
  type PlanFormProblem,
} from './plan-form.rules.js';

const LIST = '/admin/settings/plans';

/** A problem as the form shows it: a catalogue key, or the API's own words for one the form has no field for. */
interface ShownProblem {
  field: PlanFormProblem['field'] | null;
  key: string | null;
  text: string | null;
}

/**
 * Settings → Plans at /admin/settings/plans: the service plans of the operator's venues (a plan is
 * listed when every venue that offers it is the operator's), created, changed and deleted through
 * PlansService with the operator as the actor (write permission), so the venue rules, the 409 of a
 * plan in use and the audit rows are the v1 API's.
 */
@ConsoleScreen('admin/settings/plans')
export class PlansSettingsController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly plans: PlansService,
  ) {}

  @Get()
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const { operator } = session(request);
    const plans = await this.plans.list(operatorActor(operator), null);
    await this.pages.render(request, response, 200, 'settings/plans/list', {
      plans: plans.map((plan) => ({ ...plan, limits: limitWords(plan) })),
    });
  }

  @Get('new')
  async addForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = requirePermission(request, 'write');
    const venueId = venueOf(queryValue(request, 'venueId'));
    // The venue the operator came from, or its only one, ticked already.
    const picked = venueId !== null ? [venueId] : operator.venueIds?.length === 1 ? operator.venueIds : [];
    await this.showForm(request, response, 200, operator, null, emptyPlanForm(), picked, []);
  }

  @Post('new')
  async add(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = requirePermission(request, 'write');
    const { form, venueIds } = formFields(request);
    const { fields, problems } = planFieldsOf(form, venueIds);
    if (fields === null) return this.showForm(request, response, 422, operator, null, form, venueIds, own(problems));
    const claim = this.pages.claim<PlanDto>(request, { link: LIST });
    try {
      await this.plans.create(operatorActor(operator), fields, originOf(request), claim);
    } catch (error) {
      const shown = apiProblems(error);
      if (shown === null) throw error;
      return this.showForm(request, response, shown.status, operator, null, form, venueIds, shown.problems);
    }
    response.redirect(303, `${LIST}?notice=notice.plans.created`);
  }

  @Get(':id/edit')
  async editForm(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    const plan = await this.plans.get(operatorActor(operator), id);
    await this.showForm(request, response, 200, operator, plan, planFormOf(plan), plan.venueIds, []);
  }

  @Post(':id/edit')
  async edit(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    const actor = operatorActor(operator);
    const plan = await this.plans.get(actor, id);
    const { form, venueIds } = formFields(request);
    const { fields, problems } = planFieldsOf(form, venueIds);
    if (fields === null) return this.showForm(request, response, 422, operator, plan, form, venueIds, own(problems));
    const claim = this.pages.claim<PlanDto>(request, { link: LIST });
    try {
      await this.plans.update(actor, id, fields, originOf(request), claim);
    } catch (error) {
      const shown = apiProblems(error);
      if (shown === null) throw error;
      return this.showForm(request, response, shown.status, operator, plan, form, venueIds, shown.problems);
    }
    response.redirect(303, `${LIST}?notice=notice.plans.saved`);
  }

  /** What deleting does, with its form; a plan in use says what uses it instead (the delete would be refused). */
  @Get(':id/delete')
  async confirmDelete(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const operator = requirePermission(request, 'write');
    await this.showDelete(request, response, 200, operator, id);
  }

  @Post(':id/delete')
  async remove(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    try {
      await this.plans.remove(
        operatorActor(operator),
        id,
        originOf(request),
        this.pages.claim(request, { link: LIST }),
      );
    } catch (error) {
      // In use since the page was shown: the page again, saying what uses it.
      if (error instanceof ApiError && error.getStatus() === 409)
        return this.showDelete(request, response, 409, operator, id);
      throw error;
    }
    response.redirect(303, `${LIST}?notice=notice.plans.deleted`);
  }

  private async showDelete(
    request: ConsoleRequest,
    response: Response,
    status: number,
    operator: SignedInOperator,
    id: string,
  ): Promise<void> {
    const actor = operatorActor(operator);
    const plan = await this.plans.get(actor, id);
    const uses = await this.plans.uses(actor, id);
    const inUse = uses.users > 0 || uses.batches > 0 || uses.defaultOfVenues.length > 0;
    await this.pages.render(request, response, status, 'settings/plans/delete', { plan, uses, inUse });
  }

  private async showForm(
    request: ConsoleRequest,
    response: Response,
    status: number,
    operator: SignedInOperator,
    plan: PlanDto | null,
    form: PlanForm,
    picked: readonly string[],
    problems: ShownProblem[],
  ): Promise<void> {
    if (plan === null && operator.venueIds !== null && operator.venueIds.length === 0) {
      throw new PageRefusal(403, 'error.forbidden');
    }
    await this.pages.render(request, response, status, 'settings/plans/form', {
      plan,
      form,
      venueChoices: planVenueChoices(await this.pages.venueChoices(operator), plan?.venueIds ?? [], picked),
      periods: QUOTA_PERIODS,
      units: Object.keys(QUOTA_UNITS),
      problems,
    });
  }
}

/** The form as sent: its text fields and the venues ticked. */
function formFields(request: ConsoleRequest): { form: PlanForm; venueIds: string[] } {
  const form = textFields(PLAN_FORM_FIELDS, (name) => field(request, name));
  const venueIds = [...new Set(fieldValues(request, 'venue').filter((id) => id !== ''))];
  return { form, venueIds };
}

function own(problems: PlanFormProblem[]): ShownProblem[] {
  return problems.map((problem) => ({ ...problem, text: null }));
}

/**
 * The v1 refusal of a plan as problems on the form: a venue outside the operator's (403), a venue
 * still using a plan the change takes it from (409), a value refused (400, 422); null for any other.
 */
function apiProblems(error: unknown): { status: number; problems: ShownProblem[] } | null {
  if (!(error instanceof ApiError) || ![400, 403, 409, 422].includes(error.getStatus())) return null;
  const status = error.getStatus();
  const errors = error.body.errors ?? [];
  const problems = errors.map((e): ShownProblem => {
    if (status === 403) return { field: 'venueIds', key: 'plans.problem.venueOutside', text: null };
    if (status === 409) return { field: 'venueIds', key: 'plans.problem.venueInUse', text: null };
    const problem = planApiProblem(e.field);
    return problem === null ? { field: null, key: null, text: e.message } : { ...problem, text: null };
  });
  return {
    status: status === 400 ? 422 : status,
    problems:
      problems.length > 0
        ? problems
        : [
            status === 403
              ? { field: 'venueIds', key: 'plans.problem.venueOutside', text: null }
              : { field: null, key: null, text: error.body.message },
          ],
  };
}
