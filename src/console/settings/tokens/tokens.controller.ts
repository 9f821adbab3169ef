import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { actorOf } from '../../../audit/audit.rules.js';
import { ApiTokenService } from '../../../auth/api-token.service.js';
import type { ApiTokenEntity } from '../../../auth/entities/api-token.entity.js';
import { grantProblem } from '../../../auth/grant.rules.js';
import { PERMISSIONS } from '../../../auth/permissions.js';
import { generateTokenValue } from '../../../auth/token-value.js';
import { Clock } from '../../../common/clock.js';
import { SECRET_RESULT_MINUTES } from '../../../operators/console-form-tokens.service.js';
import { VenuesService } from '../../../venues/venues.service.js';
import { expiryDate, tokenName, tokenPermissions, venueRestriction } from '../access-forms.js';
import { ConsolePages, operatorActor, originOf, requireAdmin } from '../../console-page.js';
import { field, fieldValues } from '../../../web/forms.js';
import { PageRefusal } from '../../../web/errors.js';
import type { ConsoleRequest } from '../../console-request.js';
import { ConsoleScreen } from '../../console-screen.decorator.js';

const TOKENS = '/admin/settings/tokens';

/** The page of a token just created (`resultId`: the result the POST left for its session). */
function createdUrl(resultId: string): string {
  return `${TOKENS}/created/${encodeURIComponent(resultId)}`;
}

/** What the create form shows again after a problem: what was typed (never a value: a token has none yet). */
interface TokenFormValues {
  name: string;
  permissions: string[];
  scope: string;
  venues: string[];
  other: string;
  expires: string;
}

const EMPTY_FORM: TokenFormValues = { name: '', permissions: [], scope: 'all', venues: [], other: '', expires: '' };

/**
 * Settings → API access (administrators): the tokens (never their values), a new token whose value
 * is shown once, and revocation, through the token service the command line uses, with the operator
 * as the audit actor.
 */
@ConsoleScreen()
export class TokensController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly tokens: ApiTokenService,
    private readonly venues: VenuesService,
    private readonly clock: Clock,
  ) {}

  @Get('settings/tokens')
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    const tokens = (await this.tokens.list()).reverse().map((token) => this.view(token));
    await this.pages.render(request, response, 200, 'settings/tokens/list', { tokens });
  }

  @Get('settings/tokens/new')
  async newForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    await this.showForm(request, response, 200, EMPTY_FORM, null);
  }

  @Post('settings/tokens')
  async create(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = requireAdmin(request);
    const form: TokenFormValues = {
      name: field(request, 'name'),
      permissions: fieldValues(request, 'permissions'),
      scope: field(request, 'scope'),
      venues: fieldValues(request, 'venues'),
      other: field(request, 'other'),
      expires: field(request, 'expires'),
    };
    const name = tokenName(form.name);
    const permissions = tokenPermissions(form.permissions);
    const venueIds = venueRestriction(form.scope, form.venues, form.other, 'tokens.problem.venues');
    const expiresAt = expiryDate(form.expires, operator.timeZone, this.clock.now());
    if ('problem' in name) return this.showForm(request, response, 422, form, name.problem);
    if ('problem' in permissions) return this.showForm(request, response, 422, form, permissions.problem);
    if ('problem' in venueIds) return this.showForm(request, response, 422, form, venueIds.problem);
    if ('problem' in expiresAt) return this.showForm(request, response, 422, form, expiresAt.problem);
    const grant = { name: name.value, permissions: permissions.value, venueIds: venueIds.value };
    const grantor = operatorActor(operator);
    // At most the operator's own level and venues.
    if (grantProblem(grantor, grant) !== null) return this.showForm(request, response, 422, form, 'grant.refused');
    // Made here, so the result page can keep it (sealed, for its window): the service keeps only its hash.
    const value = generateTokenValue();
    const claim = this.pages.claim<ApiTokenEntity>(request, (record, resultId) => ({
      link: createdUrl(resultId),
      details: { tokenId: record.id },
      secret: value,
    }));
    await this.tokens.create(
      { ...grant, expiresAt: expiresAt.value },
      value,
      actorOf(grantor, originOf(request)),
      grantor,
      claim,
    );
    // Post/Redirect/Get: a reload shows the value again (for its window), never a second token.
    response.redirect(303, createdUrl(claim.resultId));
  }

  /** The token a create made, for the session that made it: its value while the result's window lasts. */
  @Get('settings/tokens/created/:result')
  async created(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('result') resultId: string,
  ): Promise<void> {
    requireAdmin(request);
    const result = await this.pages.result(request, resultId);
    const token = await this.find(String(result.details.tokenId ?? ''));
    await this.pages.render(request, response, 200, 'settings/tokens/created', {
      token: this.view(token),
      value: typeof result.secret === 'string' ? result.secret : null,
      until: result.until,
      minutes: SECRET_RESULT_MINUTES,
    });
  }

  @Get('settings/tokens/:id/revoke')
  async confirmRevoke(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
  ): Promise<void> {
    requireAdmin(request);
    const token = await this.find(id);
    await this.pages.render(request, response, 200, 'settings/tokens/revoke', { token: this.view(token) });
  }

  @Post('settings/tokens/:id/revoke')
  async revoke(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requireAdmin(request);
    const token = await this.find(id);
    // The same path as `hotspot token revoke`: this instance forgets the token at once, every other
    // one within TOKEN_REVISION_INTERVAL_MS (each compares the table's revision before trusting its cache).
    const grantor = operatorActor(operator);
    if (grantProblem(grantor, token) !== null) throw new PageRefusal(403, 'grant.refused');
    const claim = this.pages.claim(request, { link: TOKENS });
    await this.tokens.revoke(token.id, actorOf(grantor, originOf(request)), grantor, claim);
    response.redirect(303, `${TOKENS}?notice=notice.tokens.revoked`);
  }

  /** A token by id from the list (never by value: a URL holds no secret); 404 when none has it. */
  private async find(id: string): Promise<ApiTokenEntity> {
    const token = (await this.tokens.list()).find((candidate) => candidate.id === id);
    if (token === undefined) throw new PageRefusal(404, 'error.notFound');
    return token;
  }

  private async showForm(
    request: ConsoleRequest,
    response: Response,
    status: number,
    form: TokenFormValues,
    problem: string | null,
  ): Promise<void> {
    const registered = await this.venues.list();
    await this.pages.render(request, response, status, 'settings/tokens/new', {
      form,
      problem,
      permissions: PERMISSIONS,
      registered: registered.map((venue) => venue.id),
    });
  }

  /** A token as the pages show it: never its value or hash. */
  private view(token: ApiTokenEntity) {
    return {
      id: token.id,
      name: token.name,
      prefix: token.prefix,
      permissions: token.permissions,
      venueIds: token.venueIds,
      createdAt: token.createdAt,
      expiresAt: token.expiresAt,
      lastUsedAt: token.lastUsedAt,
      revokedAt: token.revokedAt,
      status: this.tokens.statusOf(token),
    };
  }
}
