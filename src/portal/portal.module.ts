import { Module } from '@nestjs/common';
import { GuestAccessModule } from '../guest-access/guest-access.module.js';
import { PhoneVerificationModule } from '../phone-verification/phone-verification.module.js';
import { UsageModule } from '../usage/usage.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { PortalStatusController } from './status/status.controller.js';
import { PortalHandover } from './handover/portal-handover.js';
import { PortalExceptionFilter } from './portal-exception.filter.js';
import { PortalLimits } from './portal-limits.js';
import { PortalPages } from './portal-pages.js';
import { PortalSessions } from './portal-session.js';
import { PortalViews } from './portal-views.js';
import { PortalGuard } from './portal.guard.js';
import { PortalShellController } from './shell/shell.controller.js';
import { PortalStartController } from './start/start.controller.js';
import { PortalSmsController } from './sms/sms.controller.js';
import { PortalTermsController } from './terms/terms.controller.js';
import { PortalVoucherController } from './voucher/voucher.controller.js';

/**
 * The guest portal under /portal: presentation only (it calls guest-access's services). Screens of
 * other features' ways in (sms/, social/) add their controllers here and use PortalPages,
 * PortalHandover, PortalLimits and the session's gateway context, which this module exports.
 */
@Module({
  imports: [GuestAccessModule, UsageModule, VenuesModule, PhoneVerificationModule],
  // The shell's static routes before the screens, whose :venueId would swallow `static`.
  controllers: [
    PortalShellController,
    PortalStartController,
    PortalVoucherController,
    PortalTermsController,
    PortalStatusController,
    PortalSmsController,
  ],
  providers: [
    PortalViews,
    PortalPages,
    PortalSessions,
    PortalLimits,
    PortalHandover,
    PortalGuard,
    PortalExceptionFilter,
  ],
  exports: [PortalViews, PortalPages, PortalSessions, PortalLimits, PortalHandover],
})
export class PortalModule {}
