import { Injectable, Logger } from '@nestjs/common';
import { deniedAccessDue, deniedPage, DENIED_ACCESS_INTERVAL_MS } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import { Clock } from '../common/clock.js';
import { DatabaseService } from '../database/database.service.js';
import { client } from './console-page.js';
import type { ConsoleRequest } from './console-request.js';

/** Operators whose last refusal time is kept; older entries are dropped past it. */
const TRACKED_OPERATORS = 10_000;

/**
 * The `access.denied` row of a console request refused with 403 to a signed-in operator: who, which
 * page (the route's pattern), from where. At most one a minute per operator, so that a refused form
 * submitted in a loop cannot flood the trail; a refusal not recorded is still answered 403.
 */
@Injectable()
export class DeniedAccessAudit {
  private readonly logger = new Logger('Console');
  private readonly lastRecorded = new Map<string, number>();

  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async record(request: ConsoleRequest): Promise<void> {
    const session = request.consoleSession;
    if (session === undefined || session.stage !== 'signed-in') return;
    const { operator } = session;
    const now = this.clock.now().getTime();
    if (!deniedAccessDue(this.lastRecorded.get(operator.id), now)) return;
    this.remember(operator.id, now);
    const route = (request.route as { path?: unknown } | undefined)?.path;
    const { ip, requestId } = client(request);
    try {
      await this.database.transaction((em) =>
        this.audit.record(em, {
          actor: { type: 'operator', id: operator.id, name: operator.email },
          action: 'access.denied',
          target: { type: 'page', id: deniedPage(typeof route === 'string' ? route : request.path) },
          venueIds: null,
          origin: { clientAddress: ip, requestId },
          outcome: 'failure',
        }),
      );
    } catch (error) {
      // The refusal stands whether or not its row could be written.
      this.logger.warn(`Could not record a refused request: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private remember(operatorId: string, now: number): void {
    this.lastRecorded.delete(operatorId);
    this.lastRecorded.set(operatorId, now);
    if (this.lastRecorded.size <= TRACKED_OPERATORS) return;
    // Oldest first (insertion order): entries older than the interval no longer hold anything back.
    for (const [id, at] of this.lastRecorded) {
      if (now - at < DENIED_ACCESS_INTERVAL_MS && this.lastRecorded.size <= TRACKED_OPERATORS) break;
      this.lastRecorded.delete(id);
    }
  }
}
