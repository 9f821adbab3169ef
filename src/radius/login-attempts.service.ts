import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { normaliseMac } from '../common/validation/normalise.js';
import { Deadline } from '../common/load/deadline.js';
import { DatabaseService } from '../database/database.service.js';
import { LoginAttemptEntity, type LoginOutcome } from './entities/login-attempt.entity.js';
import { searchUsernameOf } from './login-attempt-search.rules.js';
import { LoginAttemptWriter } from './login-attempt-writer.js';
import {
  LoginAttemptsRepository,
  type LoginAttemptFilter,
  type LoginAttemptQuery,
  type LoginAttemptScope,
} from './login-attempts.repository.js';

export type { LoginAttemptQuery, LoginAttemptScope } from './login-attempts.repository.js';
import { LoginDecisions } from './login-decisions.js';
import type { RadiusNas } from './nas-identity.js';
import type { RadiusAttributes } from './radius-attributes.js';
import { RadiusUsersRepository } from './radius-users.repository.js';
import {
  attemptUserLookup,
  loginMethodOf,
  rejectReasonOfMessage,
  userIdOfClass,
  type RejectReason,
} from './radius.rules.js';
import { RADIUS_OBSERVER, type RadiusObserver } from './radius-observer.js';

/** The header the shipped configuration sets in post-auth: the answer FreeRADIUS sends (Access-Accept / Access-Reject). */
export const RESULT_HEADER = 'x-radius-result';
/**
 * The header the shipped configuration sets in post-auth of a reject: the Reply-Message authorize
 * answered, which names its reason (REJECT_MESSAGES). Older configurations lack it.
 */
export const REPLY_MESSAGE_HEADER = 'x-radius-reply-message';

/** The most of a User-Name an attempt keeps (the column's length; a hostile NAS may send more). */
const USERNAME_COLUMN_LENGTH = 253;

/** What post-auth is told besides the request's attributes: the headers of the shipped configuration. */
export interface PostAuthResult {
  /** X-Radius-Result: accept or reject. */
  result: string | undefined;
  /** X-Radius-Reply-Message: the Reply-Message of a reject; undefined from an older configuration. */
  replyMessage: string | undefined;
}

/** The post-auth step: one row per authentication FreeRADIUS answered, kept for a bounded time. */
@Injectable()
export class LoginAttemptsService {
  private readonly logger = new Logger('RadiusPostAuth');

  constructor(
    private readonly database: DatabaseService,
    private readonly attempts: LoginAttemptsRepository,
    private readonly radiusUsers: RadiusUsersRepository,
    private readonly writer: LoginAttemptWriter,
    private readonly decisions: LoginDecisions,
    private readonly clock: Clock,
    @Optional() @Inject(RADIUS_OBSERVER) private readonly observer: RadiusObserver | null = null,
  ) {}

  /**
   * Records the attempt with its user, as authorize found it in the NAS's venue (remembered from
   * authorize when this process answered it; else at most one query), and, for a reject, the reason
   * authorize decided. The row goes into the next shared INSERT (LoginAttemptWriter).
   */
  async record(
    nas: RadiusNas | null,
    attributes: RadiusAttributes,
    answered: PostAuthResult,
    deadline: Deadline = Deadline.none,
  ): Promise<void> {
    const username = attributes.string('User-Name');
    const callingStationId = attributes.string('Calling-Station-Id');
    const outcome = outcomeOf(answered.result);
    const attempt = Object.assign(new LoginAttemptEntity(), {
      id: newId(),
      createdAt: this.clock.now(),
      outcome,
      nasClientId: nas?.id ?? null,
      venueId: nas?.venueId ?? null,
      userId: nas === null ? null : await this.userOf(nas, attributes, deadline),
      username: username?.slice(0, USERNAME_COLUMN_LENGTH) ?? null,
      searchUsername: username === null ? null : searchUsernameOf(username),
      macAddress: callingStationId === null ? null : normaliseMac(callingStationId),
      reason: reasonOf(nas, outcome, answered.replyMessage),
    } satisfies LoginAttemptEntity);
    await this.writer.write(attempt, deadline);
    this.observer?.postAuthRecorded(attempt.outcome);
    this.logger.log(
      `RADIUS post-auth at NAS ${nas?.name ?? '(unknown)'}: ${attempt.outcome}` +
        `${attempt.reason === null ? '' : ` (${attempt.reason})`}${attempt.userId === null ? '' : `, user ${attempt.userId}`}`,
    );
  }

  /** Attempts matching `filter`, newest first. */
  list(filter: LoginAttemptFilter): Promise<LoginAttemptEntity[]> {
    return this.database.run((em) => this.attempts.list(em, filter));
  }

  /** One page of the console's login list (see LoginAttemptsRepository.page). */
  page(query: LoginAttemptQuery): Promise<LoginAttemptEntity[]> {
    return this.database.run((em) => this.attempts.page(em, query));
  }

  /** How many attempts of the scope ended in each outcome since `since` (the console's dashboard). */
  outcomesSince(scope: LoginAttemptScope, since: Date): Promise<Record<LoginOutcome, number>> {
    return this.database.run((em) => this.attempts.outcomesSince(em, scope, since));
  }

  /** Deletes attempts older than the retention; returns how many. */
  deleteOlderThan(before: Date): Promise<number> {
    return this.database.transaction((em) => this.attempts.deleteOlderThan(em, before));
  }

  private async userOf(nas: RadiusNas, attributes: RadiusAttributes, deadline: Deadline): Promise<string | null> {
    const request = {
      username: attributes.string('User-Name'),
      password: attributes.string('User-Password'),
      callingStationId: attributes.string('Calling-Station-Id'),
    };
    if (request.username !== null) {
      const now = this.clock.now().getTime();
      const found = this.decisions.userOf(nas.id, request.username, request.callingStationId, now);
      if (found !== undefined) return found;
    }
    const lookup = attemptUserLookup(
      userIdOfClass(attributes.strings('Class')),
      request.username,
      loginMethodOf(request, normaliseMac),
    );
    if (lookup.kind === 'none') return null;
    return this.database.run(
      (em) => {
        switch (lookup.kind) {
          case 'class':
            // The device's NAS relays Class as it got it; only a user of the NAS's venue is recorded.
            return this.radiusUsers.findIdInVenue(em, lookup.userId, nas.venueId);
          case 'macOrUsername':
            return this.radiusUsers.findIdByMacOrUsername(em, nas.venueId, lookup.mac, lookup.username);
          case 'username':
            return this.radiusUsers.findIdByUsernameInVenue(em, lookup.username, nas.venueId);
        }
      },
      { deadline, lane: 'radius' },
    );
  }
}

function outcomeOf(result: string | undefined): LoginOutcome {
  const value = result?.trim().toLowerCase();
  if (value === 'access-accept' || value === 'accept') return 'accept';
  if (value === 'access-reject' || value === 'reject') return 'reject';
  return 'unknown';
}

/** An accept has no reason; a reject the one authorize decided, when the configuration passes it on. */
function reasonOf(nas: RadiusNas | null, outcome: LoginOutcome, replyMessage: string | undefined): RejectReason | null {
  if (nas === null) return 'unknownNas';
  return outcome === 'accept' ? null : rejectReasonOfMessage(replyMessage);
}
