import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { actorOf } from '../../../audit/audit.rules.js';
import {
  SocialProviderNameTakenError,
  SocialProvidersService,
  SocialProviderValidationError,
} from '../../../social-sign-in/social-providers.service.js';
import { SocialSignInService } from '../../../social-sign-in/social-sign-in.service.js';
import { PageRefusal } from '../../../web/errors.js';
import { field } from '../../../web/forms.js';
import { ConsolePages, operatorActor, originOf, requireAdmin } from '../../console-page.js';
import type { ConsoleRequest } from '../../console-request.js';
import { ConsoleScreen } from '../../console-screen.decorator.js';
import { EMPTY_SOCIAL_FORM, socialInput, type SocialProviderForm } from './social-settings.rules.js';

/** Settings → Social sign-in at /admin/settings/social (administrators): the OpenID providers of the guest portal. */
@ConsoleScreen('admin/settings/social')
export class SocialSettingsController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly providers: SocialProvidersService,
    private readonly signIn: SocialSignInService,
  ) {}

  @Get()
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    await this.pages.render(request, response, 200, 'settings/social/index', {
      providers: await this.providers.list(),
      callbackUrl: this.signIn.callbackUrl,
      encrypts: this.providers.encryptsSecrets,
    });
  }

  @Get('new')
  async addForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    await this.showForm(request, response, 200, EMPTY_SOCIAL_FORM, null);
  }

  @Post('new')
  async add(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = requireAdmin(request);
    const form: SocialProviderForm = {
      name: field(request, 'name', 64).trim(),
      displayName: field(request, 'displayName', 100).trim(),
      issuer: field(request, 'issuer', 255).trim(),
      clientId: field(request, 'clientId', 255).trim(),
      scopes: field(request, 'scopes', 255).trim(),
      venueIds: field(request, 'venueIds', 1000).trim(),
    };
    try {
      const claim = this.pages.claim(request, { link: '/admin/settings/social' });
      await this.providers.add(
        socialInput(form, field(request, 'clientSecret', 512)),
        actorOf(operatorActor(operator), originOf(request)),
        claim,
      );
    } catch (error) {
      if (error instanceof SocialProviderValidationError) {
        await this.showForm(request, response, 422, form, `social.problem.${error.field}`);
        return;
      }
      if (error instanceof SocialProviderNameTakenError) {
        await this.showForm(request, response, 409, form, 'social.problem.nameTaken');
        return;
      }
      throw error;
    }
    response.redirect(303, '/admin/settings/social?notice=notice.social.added');
  }

  @Get(':id/remove')
  async removeForm(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    requireAdmin(request);
    await this.pages.render(request, response, 200, 'settings/social/remove', { provider: await this.find(id) });
  }

  @Post(':id/remove')
  async remove(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requireAdmin(request);
    const provider = await this.find(id);
    const claim = this.pages.claim(request, { link: '/admin/settings/social' });
    const removed = await this.providers.remove(
      provider.id,
      actorOf(operatorActor(operator), originOf(request)),
      claim,
    );
    if (removed === null) throw new PageRefusal(404, 'error.notFound');
    response.redirect(303, '/admin/settings/social?notice=notice.social.removed');
  }

  /** A provider by its id (the URL names one record); 404 when there is none. */
  private async find(id: string) {
    const provider = (await this.providers.list()).find((candidate) => candidate.id === id);
    if (provider === undefined) throw new PageRefusal(404, 'error.notFound');
    return provider;
  }

  private async showForm(
    request: ConsoleRequest,
    response: Response,
    status: number,
    form: SocialProviderForm,
    problem: string | null,
  ): Promise<void> {
    await this.pages.render(request, response, status, 'settings/social/new', {
      form,
      problem,
      callbackUrl: this.signIn.callbackUrl,
    });
  }
}
