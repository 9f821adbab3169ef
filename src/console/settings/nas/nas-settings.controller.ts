import { Get, Param, Post, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import { actorOf } from '../../../audit/audit.rules.js';
import type { AppConfig } from '../../../config/configuration.js';
import {
  NasAddressTakenError,
  NasAmbiguousError,
  NasNameTakenError,
  NasService,
  NasValidationError,
  type AddNasInput,
} from '../../../nas/nas.service.js';
import { DEFAULT_COA_PORT, NAS_VENDORS, type NasVendor } from '../../../nas/nas-rules.js';
import { VenuesService } from '../../../venues/venues.service.js';
import { ConsolePages, operatorActor, originOf, requireAdmin } from '../../console-page.js';
import { field } from '../../../web/forms.js';
import { PageRefusal } from '../../../web/errors.js';
import type { ConsoleRequest } from '../../console-request.js';
import { DashboardService } from '../../dashboard/dashboard.service.js';
import { DisconnectBanner } from '../../network/disconnect-banner.js';
import { ConsoleScreen } from '../../console-screen.decorator.js';

/** The form's fields as typed, to show the form again: never the secret. */
interface NasForm {
  venueId: string;
  name: string;
  ipAddress: string;
  coaPort: string;
  vendor: string;
  requireMessageAuthenticator: boolean;
  acceptsCoa: boolean;
  allowShortSecret: boolean;
}

const EMPTY_FORM: NasForm = {
  venueId: '',
  name: '',
  ipAddress: '',
  coaPort: String(DEFAULT_COA_PORT),
  vendor: 'other',
  requireMessageAuthenticator: false,
  acceptsCoa: true,
  allowShortSecret: false,
};

/** Settings → NAS at /admin/settings/nas (administrators): the RADIUS clients FreeRADIUS accepts. */
@ConsoleScreen('admin/settings/nas')
export class NasSettingsController {
  private readonly port: number;

  constructor(
    private readonly pages: ConsolePages,
    private readonly nas: NasService,
    private readonly venues: VenuesService,
    private readonly dashboard: DashboardService,
    private readonly banner: DisconnectBanner,
    config: ConfigService<AppConfig, true>,
  ) {
    this.port = config.get('port', { infer: true });
  }

  @Get()
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    const nases = await this.nas.list();
    const accounting = await this.dashboard.nasAccounting(nases.map((nas) => nas.id));
    const unregistered = new Set(await this.venues.unregisteredNow(nases.map((nas) => nas.venueId)));
    await this.pages.render(request, response, 200, 'settings/nas/index', {
      nases: nases.map((nas) => ({
        ...nas,
        lastAccountingAt: accounting.get(nas.id)?.at ?? null,
        freshness: accounting.get(nas.id)?.freshness ?? 'silent',
        venueRegistered: !unregistered.has(nas.venueId),
      })),
      encrypts: this.nas.encryptsSecrets,
      command: this.radiusConfigCommand(),
      disconnectProblem: await this.banner.problem(),
    });
  }

  @Get('new')
  async addForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    await this.showForm(request, response, 200, EMPTY_FORM, null);
  }

  @Post('new')
  async add(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = requireAdmin(request);
    const form: NasForm = {
      venueId: field(request, 'venueId').trim(),
      name: field(request, 'name').trim(),
      ipAddress: field(request, 'ipAddress').trim(),
      coaPort: field(request, 'coaPort').trim(),
      vendor: field(request, 'vendor'),
      requireMessageAuthenticator: field(request, 'requireMessageAuthenticator') === 'on',
      acceptsCoa: field(request, 'acceptsCoa') === 'on',
      allowShortSecret: field(request, 'allowShortSecret') === 'on',
    };
    if (!/^\d{1,5}$/.test(form.coaPort)) {
      await this.showForm(request, response, 422, form, { key: 'nas.problem.coaPort' });
      return;
    }
    if (!(NAS_VENDORS as readonly string[]).includes(form.vendor)) {
      await this.showForm(request, response, 422, form, { key: 'nas.problem.vendor' });
      return;
    }
    const input: AddNasInput = {
      venueId: form.venueId,
      name: form.name,
      ipAddress: form.ipAddress,
      secret: field(request, 'secret'),
      coaPort: Number(form.coaPort),
      vendor: form.vendor as NasVendor,
      requireMessageAuthenticator: form.requireMessageAuthenticator,
      acceptsCoa: form.acceptsCoa,
      allowShortSecret: form.allowShortSecret,
    };
    let added;
    try {
      const claim = this.pages.claim(request, { link: '/admin/settings/nas' });
      added = await this.nas.add(input, actorOf(operatorActor(operator), originOf(request)), claim);
    } catch (error) {
      const problem = nasProblem(error);
      if (problem === null) throw error;
      await this.showForm(request, response, problem.status, form, problem);
      return;
    }
    const registered = await this.nas.isVenueRegistered(added.venueId);
    response.redirect(
      303,
      `/admin/settings/nas?notice=${registered ? 'notice.nas.added' : 'notice.nas.addedUnregistered'}`,
    );
  }

  @Get(':id/remove')
  async removeForm(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    requireAdmin(request);
    const nas = await this.find(id);
    await this.pages.render(request, response, 200, 'settings/nas/remove', { nas });
  }

  @Post(':id/remove')
  async remove(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requireAdmin(request);
    const nas = await this.find(id);
    try {
      const claim = this.pages.claim(request, { link: '/admin/settings/nas' });
      const removed = await this.nas.remove(nas.id, actorOf(operatorActor(operator), originOf(request)), claim);
      if (removed === null) throw new PageRefusal(404, 'error.notFound');
    } catch (error) {
      if (error instanceof NasAmbiguousError) throw new PageRefusal(409, 'error.conflict');
      throw error;
    }
    response.redirect(303, '/admin/settings/nas?notice=notice.nas.removed');
  }

  /** A registered NAS by its id (never by name: the URL names one record); 404 when there is none. */
  private async find(id: string) {
    const nas = (await this.nas.list()).find((candidate) => candidate.id === id);
    if (nas === undefined) throw new PageRefusal(404, 'error.notFound');
    return nas;
  }

  private async showForm(
    request: ConsoleRequest,
    response: Response,
    status: number,
    form: NasForm,
    problem: { key: string; values?: Record<string, string> } | null,
  ): Promise<void> {
    await this.pages.render(request, response, status, 'settings/nas/new', {
      form,
      problem,
      vendors: NAS_VENDORS,
      venues: await this.venues.list(),
    });
  }

  /** The step docs/radius.md gives after `nas add` or `nas remove` (the page adds: then restart FreeRADIUS). */
  private radiusConfigCommand(): string {
    return (
      `hotspot radius-config --out /etc/freeradius-hotspot --api-url http://127.0.0.1:${this.port} ` +
      '--token "$RADIUS_TOKEN"'
    );
  }
}

/** The form's problem for an error of NasService.add, naming the field; null for any other error. */
function nasProblem(error: unknown): { key: string; values?: Record<string, string>; status: number } | null {
  if (error instanceof NasValidationError) {
    const key =
      error.field === 'secret' && /at least/.test(error.message)
        ? 'nas.problem.shortSecret'
        : `nas.problem.${error.field}`;
    return { key, status: 422 };
  }
  if (error instanceof NasNameTakenError) return { key: 'nas.problem.nameTaken', status: 409 };
  if (error instanceof NasAddressTakenError) {
    return { key: 'nas.problem.addressTaken', values: { name: error.nasName }, status: 409 };
  }
  return null;
}
