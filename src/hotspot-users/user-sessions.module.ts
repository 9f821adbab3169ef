import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module.js';
import { HotspotUsersRepository } from './hotspot-users.repository.js';
import { UserSessionsService } from './user-sessions.service.js';

/**
 * Session starts for hotspot users, without the HTTP side: the session CLI imports this alone; the
 * RADIUS module imports it for the user and session repositories its accounting works with.
 */
@Module({
  imports: [SessionsModule],
  providers: [UserSessionsService, HotspotUsersRepository],
  exports: [UserSessionsService, HotspotUsersRepository, SessionsModule],
})
export class UserSessionsModule {}
