import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { BatchesService } from '../../batches/batches.service.js';
import { cardsCsv } from '../../batches/csv.js';
import type { BatchCardsDto } from '../../batches/dto/batch.response.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { AdmittedRequest } from '../../common/load/admission.middleware.js';
import { VenuesService } from '../../venues/venues.service.js';
import {
  BATCH_ACTIONS,
  BATCH_FORM_FIELDS,
  BATCH_FORM_INPUTS,
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
import { ConsoleScreen } from '../console-screen.decorator.js';

const PAGE_SIZE = 20;

/** A catalogue key made of parts (`batches.field` + `count`), for views that pick a key by a value. */
const key = (...parts: string[]): string => parts.join('.');

/**
 * Batches and cards: a venue's batches, the create form, a batch's accounts, and its printable cards
 * and CSV export. Printing and exporting show the passwords: they are POSTs (a GET shows what they
 * do), need write permission, and go through BatchesService.reveal, which keeps the 24-hour window
 * and writes the batch.reveal audit row, as the v1 API's reveal does.
 */
@ConsoleScreen()
export class BatchesConsoleController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly batches: BatchesService,
    private readonly venues: VenuesService,
  ) {}

  @Get('batches')
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const { operator } = session(request);
    const venueId = venueOf(queryValue(request, 'venueId')) ?? operator.venueIds?.[0] ?? null;
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
    try {
      const created = await this.batches.create(
        operatorActor(operator),
        batchRequest,
        originOf(request),
        null,
        (request as Partial<AdmittedRequest>).deadline,
      );
      response.redirect(303, `/admin/batches/${encodeURIComponent(created.id)}?notice=notice.batches.created`);
    } catch (error) {
      if (!(error instanceof ApiError) || ![400, 409].includes(error.getStatus())) throw error;
      const errors = error.body.errors ?? [{ field: '', message: error.body.message }];
      return again(
        error.getStatus() === 400 ? 422 : 409,
        errors.map((e) => ({ field: e.field, key: null, text: e.message })),
      );
    }
  }

  @Get('batches/:id')
  async show(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const { operator } = session(request);
    const batch = await this.batches.get(operatorActor(operator), id);
    await this.pages.render(request, response, 200, 'batches/show', { key, batch });
  }

  @Get('batches/:id/print')
  confirmPrint(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.confirm(request, response, id, 'print');
  }

  @Post('batches/:id/print')
  async print(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    const { batch, cards } = await this.reveal(operator, id, request);
    const venue = (await this.venues.list()).find((entry) => entry.id === batch.venueId);
    const portalUrl = venue?.portalUrl ?? null;
    await this.pages.render(request, response, 200, 'batches/print', {
      batch,
      cards,
      venueTitle: venue?.displayName ?? batch.venueId,
      qr: portalUrl === null ? null : qrCodeSvg(portalUrl, portalUrl),
      portalUrl,
    });
  }

  @Get('batches/:id/export.csv')
  confirmExport(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.confirm(request, response, id, 'export');
  }

  @Post('batches/:id/export.csv')
  async export(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requirePermission(request, 'write');
    const revealed = await this.reveal(operator, id, request);
    response
      .status(200)
      .type('text/csv; charset=utf-8')
      .setHeader('Content-Disposition', `attachment; filename="batch-${revealed.batch.id}.csv"`)
      .setHeader('Cache-Control', 'no-store')
      .send(cardsCsv(revealed));
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

  private async reveal(operator: SignedInOperator, id: string, request: ConsoleRequest): Promise<BatchCardsDto> {
    try {
      return await this.batches.reveal(operatorActor(operator), id, originOf(request));
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
      batches: result?.data ?? [],
      pagination: result?.pagination ?? null,
      previous: page > 1 ? at(page - 1) : null,
      next: page < pages ? at(page + 1) : null,
      form,
      problems,
    });
  }
}

interface Problem {
  field: string;
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
    label: '',
  };
}

function pageOf(value: string): number {
  if (value === '') return 1;
  const page = /^\d{1,6}$/.test(value) ? Number(value) : 0;
  if (page < 1) throw new PageRefusal(400, 'error.invalid');
  return page;
}
