import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { BatchesService } from '../../batches/batches.service.js';
import { cardsCsv } from '../../batches/csv.js';
import type { BatchCardsDto, BatchDetailDto, BatchDto } from '../../batches/dto/batch.response.js';
import { SECRET_RESULT_MINUTES } from '../../operators/console-form-tokens.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { AdmittedRequest } from '../../common/load/admission.middleware.js';
import {
  BATCH_ACTIONS,
  BATCH_FORM_FIELDS,
  BATCH_FORM_INPUTS,
  batchApiProblem,
  batchRequestOf,
  type BatchForm,
} from './batches.rules.js';
import { PageRefusal } from '../../web/errors.js';
import {
  ConsolePages,
  operatorActor,
  originOf,
  requirePermission,
  session,
  type SignedInOperator,
  venueOf,
} from '../console-page.js';
import { field, queryValue, textFields } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { qrCodeSvg } from '../../web/qr-svg.js';
import { wifiJoinText } from '../../web/wifi.js';
import { ConsoleScreen } from '../console-screen.decorator.js';
import type { Actor } from '../../auth/actor.js';
import type { PlanDto } from '../../plans/dto/plan.response.js';
import { PlansService } from '../../plans/plans.service.js';
import { limitWords } from '../settings/plans/plan-form.rules.js';

const PAGE_SIZE = 20;

/** A batch's page. */
function batchUrl(id: string): string {
  return `/admin/batches/${encodeURIComponent(id)}`;
}

/** The page (cards) or file (export) of a reveal (`resultId`: the result the POST left for its session). */
function revealedUrl(id: string, page: 'cards' | 'export', resultId: string): string {
  return `${batchUrl(id)}/${page}/${encodeURIComponent(resultId)}`;
}

/** A catalogue key made of parts (`batches.field` + `count`), for views that pick a key by a value. */
const key = (...parts: string[]): string => parts.join('.');

/**
 * Batches and cards: a venue's batches, the create form, a batch's accounts, and its printable cards
 * and CSV export. Printing and exporting show the passwords: they are POSTs (a GET shows what they
 * do), need write permission, and go through BatchesService.reveal, which keeps the 24-hour window
 * and writes the batch.reveal audit row, as the v1 API's reveal does; the POST then redirects to the
 * cards (or the file), which the same session may load again for a few minutes without another reveal.
 */
@ConsoleScreen()
export class BatchesConsoleController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly batches: BatchesService,
    private readonly plans: PlansService,
  ) {}

  @Get('batches')
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const { operator } = session(request);
    // The venue picked, or (an operator of every venue) one typed instead of picked.
    const typed = queryValue(request, 'otherVenueId').trim();
    const venueId = venueOf(typed === '' ? queryValue(request, 'venueId') : typed) ?? operator.venueIds?.[0] ?? null;
    const page = pageOf(queryValue(request, 'page'));
    await this.renderList(request, response, 200, operator, venueId, page, emptyForm(venueId), []);
  }

  @Post('batches')
  async create(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = requirePermission(request, 'write');
    const form = textFields(BATCH_FORM_FIELDS, (name) => field(request, name));
    const venueId = venueOf(form.venueId);
    if (venueId === null) throw new PageRefusal(400, 'error.invalid');
    const again = (status: number, problems: Problem[]) =>
      this.renderList(request, response, status, operator, venueId, 1, form, problems);
    const { request: batchRequest, problems } = batchRequestOf(form, operator.timeZone);
    if (batchRequest === null)
      return again(
        422,
        problems.map((problem) => ({ ...problem, text: null })),
      );
    const claim = this.pages.claim<BatchDetailDto>(request, (created) => ({ link: batchUrl(created.id) }));
    try {
      const created = await this.batches.create(
        operatorActor(operator),
        batchRequest,
        originOf(request),
        null,
        (request as Partial<AdmittedRequest>).deadline,
        claim,
      );
      response.redirect(303, `${batchUrl(created.id)}?notice=notice.batches.created`);
    } catch (error) {
      if (!(error instanceof ApiError) || ![400, 409, 422].includes(error.getStatus())) throw error;
      const errors = error.body.errors ?? [{ field: '', message: error.body.message }];
      return again(
        error.getStatus() === 409 ? 409 : 422,
        errors.map((e) => batchApiProblem(error.getStatus(), e.field, e.message)),
      );
    }
  }

  @Get('batches/:id')
  async show(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const { operator } = session(request);
    const batch = await this.batches.get(operatorActor(operator), id);
    const plan = await this.planOf(operatorActor(operator), batch.planId);
    await this.pages.render(request, response, 200, 'batches/show', { key, batch, plan });
  }

  @Get('batches/:id/print')
  confirmPrint(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.confirm(request, response, id, 'print');
  }

  @Post('batches/:id/print')
  async print(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    const resultId = await this.reveal(operator, id, request, 'cards');
    // Post/Redirect/Get: the cards are on a page a reload shows again (for its window), with no second reveal.
    response.redirect(303, revealedUrl(id, 'cards', resultId));
  }

  /** The cards of a reveal this session made, while the result's window lasts (SECRET_RESULT_MINUTES). */
  @Get('batches/:id/cards/:result')
  async cards(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Param('result') resultId: string,
  ): Promise<void> {
    const operator = requirePermission(request, 'write');
    const { batch, cards } = await this.revealed(request, operator, id, resultId);
    const venue = await this.pages.venue(batch.venueId);
    const portalUrl = venue?.portalUrl ?? null;
    const ssid = venue?.ssid ?? null;
    const plan = await this.planOf(operatorActor(operator), batch.planId);
    await this.pages.render(request, response, 200, 'batches/print', {
      batch,
      cards,
      plan,
      // What a guest notices of a plan: speed, data and time (not the NAS's accounting interval).
      planLimits:
        plan === null
          ? []
          : limitWords(plan).filter(
              (words) => !['plans.limit.interimInterval', 'plans.limit.none'].includes(words.key),
            ),
      venueTitle: venue?.displayName ?? batch.venueId,
      qr: portalUrl === null ? null : qrCodeSvg(portalUrl, portalUrl),
      portalUrl,
      ssid,
      // One code for every card: the network's, to join it before signing in.
      wifiQr: ssid === null ? null : qrCodeSvg(wifiJoinText(ssid, null), ssid),
    });
  }

  @Get('batches/:id/export.csv')
  confirmExport(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.confirm(request, response, id, 'export');
  }

  @Post('batches/:id/export.csv')
  async export(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    const resultId = await this.reveal(operator, id, request, 'export');
    // Post/Redirect/Get: the browser fetches the file with a GET; a reload asks for no second reveal.
    response.redirect(303, revealedUrl(id, 'export', resultId));
  }

  /** The CSV of a reveal this session made, while the result's window lasts (SECRET_RESULT_MINUTES). */
  @Get('batches/:id/export/:result')
  async exported(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Param('result') resultId: string,
  ): Promise<void> {
    const operator = requirePermission(request, 'write');
    const revealed = await this.revealed(request, operator, id, resultId);
    response
      .status(200)
      .type('text/csv; charset=utf-8')
      .setHeader('Content-Disposition', `attachment; filename="batch-${revealed.batch.id}.csv"`)
      .setHeader('Cache-Control', 'no-store')
      .send(cardsCsv(revealed));
  }

  /** The plan a batch gave, when the operator may see it (a plan of venues beyond the operator's is not named). */
  private async planOf(actor: Actor, planId: string | null): Promise<PlanDto | null> {
    if (planId === null) return null;
    try {
      return await this.plans.get(actor, planId);
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 404) return null;
      throw error;
    }
  }

  /** What printing or exporting does (the passwords shown, the window), with its form; nothing changes on GET. */
  private async confirm(
    request: ConsoleRequest,
    response: Response,
    id: string,
    action: (typeof BATCH_ACTIONS)[number],
  ): Promise<void> {
    const operator = requirePermission(request, 'write');
    const batch = await this.batches.get(operatorActor(operator), id);
    if (batch.passwords === 'gone') throw new PageRefusal(410, 'batches.gone');
    await this.pages.render(request, response, 200, 'batches/confirm', { key, batch, action });
  }

  /**
   * Records a reveal (BatchesService.reveal: the window, the batch.reveal audit row) with this POST's
   * form token; returns the id of the result page that shows the cards.
   */
  private async reveal(
    operator: SignedInOperator,
    id: string,
    request: ConsoleRequest,
    page: 'cards' | 'export',
  ): Promise<string> {
    const claim = this.pages.claim<BatchDto>(request, (batch, resultId) => ({
      link: revealedUrl(batch.id, page, resultId),
      details: { batchId: batch.id },
      reveals: true,
    }));
    try {
      await this.batches.reveal(operatorActor(operator), id, originOf(request), claim);
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 410) throw new PageRefusal(410, 'batches.gone');
      throw error;
    }
    return claim.resultId;
  }

  /** The cards again, for the result page of this session's reveal of batch `id`, within its window only. */
  private async revealed(
    request: ConsoleRequest,
    operator: SignedInOperator,
    id: string,
    resultId: string,
  ): Promise<BatchCardsDto> {
    const result = await this.pages.result(request, resultId);
    if (result.details.batchId !== id) throw new PageRefusal(404, 'error.notFound');
    if (!result.open) throw new PageRefusal(410, 'batches.resultGone', { minutes: SECRET_RESULT_MINUTES });
    try {
      return await this.batches.revealedCards(operatorActor(operator), id);
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 410) throw new PageRefusal(410, 'batches.gone');
      throw error;
    }
  }

  private async renderList(
    request: ConsoleRequest,
    response: Response,
    status: number,
    operator: SignedInOperator,
    venueId: string | null,
    page: number,
    form: BatchForm,
    problems: Problem[],
  ): Promise<void> {
    const result =
      venueId === null ? null : await this.batches.list(operatorActor(operator), venueId, { page, limit: PAGE_SIZE });
    const pages = result?.pagination.pages ?? 0;
    const at = (to: number) => `/admin/batches?venueId=${encodeURIComponent(venueId ?? '')}&page=${to}`;
    await this.pages.render(request, response, status, 'batches/list', {
      key,
      inputs: BATCH_FORM_INPUTS,
      venueId,
      venues: await this.pages.venueChoices(operator),
      unrestricted: operator.venueIds === null,
      venueRegistered: venueId === null || (await this.pages.venue(venueId)) !== null,
      batches: result?.data ?? [],
      pagination: result?.pagination ?? null,
      previous: page > 1 ? at(page - 1) : null,
      next: page < pages ? at(page + 1) : null,
      form,
      problems,
      planChoices: venueId === null ? [] : await this.plans.list(operatorActor(operator), venueId),
    });
  }
}

interface Problem {
  /** The form's field it is about; null for a refusal of none (the summary alone shows it). */
  field: string | null;
  key: string | null;
  text: string | null;
}

function emptyForm(venueId: string | null): BatchForm {
  return {
    venueId: venueId ?? '',
    count: '',
    prefix: '',
    passwordLength: '',
    expiresAt: '',
    validForHours: '',
    planId: '',
    label: '',
  };
}

function pageOf(value: string): number {
  if (value === '') return 1;
  const page = /^\d{1,6}$/.test(value) ? Number(value) : 0;
  if (page < 1) throw new PageRefusal(400, 'error.invalid');
  return page;
}
