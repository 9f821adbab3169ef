import { Get, Param, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { gatewayContextOf } from '../gateways/gateways.js';
import type { GatewayQuery } from '../gateways/gateway.js';
import { PortalPages } from '../portal-pages.js';
import type { PortalRequest } from '../portal-request.js';
import { PortalScreen } from '../portal-screen.decorator.js';

/**
 * /portal/:venueId, where the gateway sends a trapped guest: its redirect parameters start the visit's
 * session (the gateway context in the sealed cookie), and the page lists the ways in the venue offers.
 */
@PortalScreen()
export class PortalStartController {
  constructor(private readonly pages: PortalPages) {}

  @Get(':venueId')
  async start(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portal(venueId);
    this.pages.session(request, response, venueId, gatewayContextOf(queryOf(request)));
    await this.pages.render(request, response, 200, 'start/start', portal, { ways: portal.ways });
  }
}

/** The query's parameters as text: the first value of a repeated one, nothing that is not text. */
function queryOf(request: PortalRequest): GatewayQuery {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') query[name] = first;
  }
  return query;
}
