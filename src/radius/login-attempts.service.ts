import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { normaliseMac } from '../common/validation/normalise.js';
import { DatabaseService } from '../database/database.service.js';
import { LoginAttemptEntity, type LoginOutcome } from './entities/login-attempt.entity.js';
import { LoginAttemptsRepository } from './login-attempts.repository.js';
import type { RadiusNas } from './nas-identity.js';
import type { RadiusAttributes } from './radius-attributes.js';
import { userIdOfClass } from './radius.rules.js';

/** The header the shipped configuration sets in post-auth: the answer FreeRADIUS sends (Access-Accept / Access-Reject). */
export const RESULT_HEADER = 'x-radius-result';

/** The post-auth step: one row per authentication FreeRADIUS answered, kept for a bounded time. */
@Injectable()
export class LoginAttemptsService {
  private readonly logger = new Logger('RadiusPostAuth');

  constructor(
    private readonly database: DatabaseService,
    private readonly attempts: LoginAttemptsRepository,
    private readonly clock: Clock,
  ) {}

  async record(nas: RadiusNas | null, attributes: RadiusAttributes, result: string | undefined): Promise<void> {
    const callingStationId = attributes.string('Calling-Station-Id');
    const attempt = Object.assign(new LoginAttemptEntity(), {
      id: newId(),
      createdAt: this.clock.now(),
      outcome: outcomeOf(result),
      nasClientId: nas?.id ?? null,
      venueId: nas?.venueId ?? null,
      userId: userIdOfClass(attributes.strings('Class')),
      username: attributes.string('User-Name')?.slice(0, 253) ?? null,
      macAddress: callingStationId === null ? null : normaliseMac(callingStationId),
      reason: nas === null ? 'unknown NAS' : null,
    } satisfies LoginAttemptEntity);
    await this.database.transaction((em) => this.attempts.insert(em, attempt));
    this.logger.log(`RADIUS post-auth at NAS ${nas?.name ?? '(unknown)'}: ${attempt.outcome}`);
  }

  /** Deletes attempts older than the retention; returns how many. */
  deleteOlderThan(before: Date): Promise<number> {
    return this.database.transaction((em) => this.attempts.deleteOlderThan(em, before));
  }
}

function outcomeOf(result: string | undefined): LoginOutcome {
  const value = result?.trim().toLowerCase();
  if (value === 'access-accept' || value === 'accept') return 'accept';
  if (value === 'access-reject' || value === 'reject') return 'reject';
  return 'unknown';
}
