import { Get, Param, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HotspotUsersService } from '../../hotspot-users/hotspot-users.service.js';
import { SECRET_RESULT_MINUTES } from '../../operators/console-form-tokens.service.js';
import { queryValue } from '../../web/forms.js';
import { qrCodeSvg } from '../../web/qr-svg.js';
import { wifiJoinText } from '../../web/wifi.js';
import { ConsolePages, context, operatorActor, requirePermission, venueOf } from '../console-page.js';
import type { ConsoleRequest } from '../console-request.js';
import { ConsoleScreen } from '../console-screen.decorator.js';
import { pathId } from '../network/network-request.js';
import { userUrl } from '../users/users.rules.js';

/**
 * The guest slip: one printable page for the guest, reached from the result page of a create or of a
 * password reset, with the venue's SSID and a Wi-Fi join QR code, the username, the password and how
 * long the stay lasts. It reads the same result as that page (this session only, the password within
 * the result's window only), so it shows nothing the result page would not.
 */
@ConsoleScreen()
export class GuestSlipController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly users: HotspotUsersService,
  ) {}

  @Get('users/:id/slip/:result')
  async slip(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: unknown,
    @Param('result') resultId: string,
  ): Promise<void> {
    const operator = requirePermission(request, 'write');
    const userId = pathId(id);
    const result = await this.pages.result(request, resultId, userId);
    const venueId = venueOf(queryValue(request, 'venueId'));
    const user = (await this.users.get(operatorActor(operator), userId, context(venueId))).data;
    // The venue the slip is for: the one the operator came from, else the guest's first.
    const slipVenue = venueId ?? user.venueIds[0] ?? null;
    const venue = slipVenue === null ? null : await this.pages.venue(slipVenue);
    const ssid = venue?.ssid ?? null;
    const password = result.open && typeof result.secret === 'string' ? result.secret : null;
    // A create with a typed password left no secret: the desk typed it and gives it itself.
    const typed = result.details.generated === false;
    await this.pages.render(request, response, 200, 'guest-slip/slip', {
      user,
      venueId: slipVenue,
      venueTitle: slipVenue === null ? null : (venue?.displayName ?? slipVenue),
      ssid,
      qr: ssid === null ? null : qrCodeSvg(wifiJoinText(ssid, null), ssid),
      password,
      typed,
      hasPassword: user.loginMethod === 'username_password',
      minutes: SECRET_RESULT_MINUTES,
      until: result.until,
      registered: venue !== null,
      // The result page the slip was opened from (a create's or a reset's).
      back: result.link ?? userUrl(userId, venueId),
    });
  }
}
