import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import { normaliseMac } from '../common/validation/normalise.js';
import { Deadline } from '../common/load/deadline.js';
import { DatabaseService } from '../database/database.service.js';
import { HotspotUsersRepository } from '../hotspot-users/hotspot-users.repository.js';
import { DevicesRepository } from '../sessions/devices.repository.js';
import { SessionEntity } from '../sessions/entities/session.entity.js';
import { newDevice } from '../sessions/session.rules.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { isOpenJob } from '../unauth-jobs/unauth-job-rules.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import { InterimUpdateBatcher } from './interim-update-batcher.js';
import type { RadiusNas } from './nas-identity.js';
import type { RadiusAttributes } from './radius-attributes.js';
import { RadiusUsersRepository } from './radius-users.repository.js';
import {
  accountingStep,
  addressOrNull,
  ACCT_STATUS_TYPES,
  clampSessionTime,
  combineOctets,
  latestOf,
  maxCounter,
  offlineReason,
  type OfflineReason,
  recordedSource,
  reportsLess,
  reportsProgress,
  restartedSource,
  SERVICE_TERMINATE_CAUSES,
  sessionOwnerOf,
  sessionStartedAt,
  TERMINATE_CAUSES,
  userIdOfClass,
} from './radius.rules.js';
import { RADIUS_OBSERVER, type RadiusObserver } from './radius-observer.js';

const OFFLINE_WORDS: Record<OfflineReason, string> = {
  blocked: 'blocked',
  expired: 'expired',
  wrongVenue: "not in the NAS's venue",
};

/** What an accounting packet reports about one session, read from its attributes. */
interface SessionReport {
  type: 'Start' | 'Interim-Update' | 'Stop';
  accountingUniqueId: string;
  acctSessionId: string | null;
  username: string | null;
  classUserId: string | null;
  macAddress: string;
  ipAddress: string | null;
  nasIpAddress: string | null;
  calledStationId: string | null;
  callingStationId: string | null;
  inputOctets: string | null;
  outputOctets: string | null;
  sessionTime: number | null;
  /** Seconds the NAS held the packet before sending it (Acct-Delay-Time). */
  delay: number;
  terminateCause: string | null;
}

/**
 * RADIUS accounting into sessions and devices. Each packet is one transaction that locks the user's
 * row first (like every status change), so a block, expiry or delete and a packet about the same
 * user run one after the other. Every write is keyed by the NAS and Acct-Unique-Session-Id, so a
 * retransmitted packet changes nothing more.
 */
@Injectable()
export class AccountingService {
  private readonly logger = new Logger('RadiusAccounting');

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly users: HotspotUsersRepository,
    private readonly radiusUsers: RadiusUsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly devices: DevicesRepository,
    private readonly unauthJobs: UnauthJobsService,
    private readonly interimUpdates: InterimUpdateBatcher,
    @Optional() @Inject(RADIUS_OBSERVER) private readonly observer: RadiusObserver | null = null,
  ) {}

  async account(nas: RadiusNas, attributes: RadiusAttributes, deadline: Deadline = Deadline.none): Promise<void> {
    const type = attributes.enumerated('Acct-Status-Type', ACCT_STATUS_TYPES);
    this.observer?.accountingPacket(type ?? 'other');
    if (type === 'Accounting-On' || type === 'Accounting-Off') {
      const now = this.clock.now();
      const source = restartedSource(nas);
      const ended = await this.database.transaction(
        async (em) => {
          const count = await this.sessions.endActiveOfNas(
            em,
            nas.id,
            source,
            SERVICE_TERMINATE_CAUSES.nasRestart,
            now,
          );
          // Sessions ended here before (a block) that a job still has to disconnect: the NAS has none now.
          await this.unauthJobs.settleOpenJobSessionsOfNas(em, nas.id, source, now);
          return count;
        },
        { deadline, lane: 'radius' },
      );
      const whose = source === null ? 'its' : `its (from ${source})`;
      this.logger.log(`NAS ${nas.name} sent ${type}: ended ${whose} ${ended} open session(s)`);
      return;
    }
    if (type === null) {
      this.logger.log(`Accounting packet from NAS ${nas.name} dropped: no Acct-Status-Type this service records`);
      return;
    }
    const report = reportOf(type, attributes);
    if (report === null) {
      this.logger.warn(`Accounting ${type} from NAS ${nas.name} dropped: no Acct-Unique-Session-Id or Acct-Session-Id`);
      return;
    }
    if (report.type === 'Interim-Update' && (await this.reportedOnActiveSession(nas, report, deadline))) return;
    const userId = await this.resolveUser(nas, report, deadline);
    if (userId === null) {
      this.logger.warn(`Accounting ${type} from NAS ${nas.name} dropped: no user matches its Class or User-Name`);
      return;
    }
    // READ COMMITTED: the user's row lock orders packets about one user, and a burst of new
    // sessions and devices of different users takes no gap locks to deadlock on.
    const recordIt = () =>
      this.database.transaction((em) => this.record(em, nas, userId, report), {
        readCommitted: true,
        deadline,
        lane: 'radius',
      });
    try {
      await recordIt();
    } catch (error) {
      // Two copies of a packet raced past a lookup (of a new session, or of a deleted user's
      // enforcement job) and the second's insert hit the first's row: it finds that row now.
      if (!isUniqueViolation(error)) throw error;
      await recordIt();
    }
  }

  /**
   * The packet sent most: an Interim-Update about an active session of an active user it names,
   * whose device the user already has: its counters and its device, without locking the user's
   * row, batched with the other packets that arrive meanwhile (see InterimUpdateBatcher). False
   * when anything else holds: the packet then takes the general path under the user's lock.
   */
  private reportedOnActiveSession(nas: RadiusNas, report: SessionReport, deadline: Deadline): Promise<boolean> {
    const owner = sessionOwnerOf(report.classUserId, report.username, nas.venueId);
    if (owner === null) return Promise.resolve(false);
    const target = {
      nasClientId: nas.id,
      accountingUniqueId: report.accountingUniqueId,
      owner,
      macAddress: report.macAddress,
    };
    return this.interimUpdates.report(target, report, this.clock.now(), deadline);
  }

  /** The user a packet is about: the Class this service issued, else the User-Name in the NAS's venue. */
  private async resolveUser(nas: RadiusNas, report: SessionReport, deadline: Deadline): Promise<string | null> {
    if (report.classUserId !== null) return report.classUserId;
    const username = report.username;
    if (username === null) return null;
    return this.database.run(
      async (em) => {
        const found = await this.radiusUsers.findIdByUsernameInVenue(em, username, nas.venueId);
        if (found !== null) return found;
        const mac = normaliseMac(username);
        return mac === null ? null : this.radiusUsers.findGuestIdByMac(em, nas.venueId, mac);
      },
      { deadline, lane: 'radius' },
    );
  }

  private async record(em: EntityManager, nas: RadiusNas, userId: string, report: SessionReport): Promise<void> {
    const user = await this.users.lockStanding(em, userId, nas.venueId);
    const now = this.clock.now();
    if (user === null) {
      await this.enforceForMissingUser(em, nas, userId, report, now);
      return;
    }
    const offline = offlineReason(user, now);
    const allowed = offline === null;
    // The packet sent most, about an active session of a user who may be online: one UPDATE, no read.
    if (
      report.type === 'Interim-Update' &&
      allowed &&
      (await this.sessions.reportOnActive(em, nas.id, report.accountingUniqueId, report, now))
    ) {
      await this.recordDevice(em, userId, report, now);
      return;
    }
    const stored = await this.sessions.lockByAccountingId(em, nas.id, report.accountingUniqueId);
    const step = accountingStep(report.type, stored, allowed, stored !== null && reportsProgress(stored, report));
    const counters = countersOf(report, stored, now);
    switch (step.kind) {
      case 'ignore':
        return;
      case 'insert': {
        const session = this.newSession(nas, userId, report, now, user.createdAt);
        Object.assign(session, counters);
        if (step.ended)
          Object.assign(session, {
            status: 'stopped',
            endedAt: now,
            terminateCause: report.terminateCause,
            nasStoppedAt: now,
          });
        await this.sessions.insert(em, session);
        await this.recordDevice(em, userId, report, now);
        return;
      }
      case 'update': {
        const current = stored as SessionEntity;
        const ends = step.ends ? { status: 'stopped' as const, endedAt: now } : {};
        const cause =
          report.type === 'Stop' && current.terminateCause === null ? { terminateCause: report.terminateCause } : {};
        // The NAS says the session is over: a Disconnect still owed for it is settled, and soon; one
        // waiting for its confirmation needs none any more.
        const stopped = report.type === 'Stop' && current.nasStoppedAt === null ? { nasStoppedAt: now } : {};
        const confirmed = report.type === 'Stop' && current.disconnectJobId !== null ? { disconnectJobId: null } : {};
        await this.sessions.update(em, current.id, { ...counters, ...ends, ...cause, ...stopped, ...confirmed });
        if (report.type === 'Stop') await this.unauthJobs.hurryJobsOfSessions(em, userId, [current.id], now);
        if (current.status === 'active') await this.recordDevice(em, userId, report, now);
        return;
      }
      case 'reopen': {
        const current = stored as SessionEntity;
        // The NAS reports it going on, so whatever it said of its end before no longer holds.
        await this.sessions.update(em, current.id, {
          ...counters,
          status: 'active',
          endedAt: null,
          terminateCause: null,
          nasStoppedAt: null,
          disconnectJobId: null,
        });
        await this.recordDevice(em, userId, report, now);
        this.logger.warn(
          `NAS ${nas.name} still reports session ${current.id} of user ${userId}, ended here (${current.terminateCause ?? current.status}): online again`,
        );
        return;
      }
      case 'enforce':
      case 'enforceAgain': {
        const ended = {
          status: 'expired' as const,
          endedAt: now,
          terminateCause: SERVICE_TERMINATE_CAUSES.enforcement,
        };
        let session: SessionEntity;
        if (step.kind === 'enforceAgain') {
          // Ended here already: only its counters change, and a job is written unless one under way covers it.
          // The NAS reports it going on: a Disconnect owed for it must be sent, not settled as stopped.
          session = Object.assign(new SessionEntity(), stored, counters, { nasStoppedAt: null });
          await this.sessions.update(em, session.id, { ...counters, nasStoppedAt: null });
          const earlier = await this.unauthJobs.jobStatusesForSession(em, userId, session.id);
          if (earlier.some(isOpenJob)) return;
        } else if (step.insert) {
          session = Object.assign(this.newSession(nas, userId, report, now, user.createdAt), counters, ended);
          await this.sessions.insert(em, session);
        } else {
          session = Object.assign(new SessionEntity(), stored, counters, ended);
          await this.sessions.update(em, session.id, { ...counters, ...ended });
        }
        await this.unauthJobs.enqueue(
          em,
          { userId, username: user.username, reason: 'enforcement', sessions: [session] },
          now,
        );
        const what = step.kind === 'enforceAgain' ? 'still online after its session ended here' : 'ended';
        this.logger.warn(
          `NAS ${nas.name} reports a session of user ${userId}, who may not be online there (${OFFLINE_WORDS[offline!]}): ${what}, unauth job written`,
        );
        return;
      }
    }
  }

  /**
   * A packet whose Class names a user that no longer exists (deleted): the session cannot be stored,
   * but the network side is told, with an id derived from the NAS and the accounting id. Told once,
   * and again only after each job for it failed (the NAS still reports the session). With no user's
   * row to lock, copies of the packet arriving together may all find the same jobs; the new job's id
   * is derived from those too, so only one insert succeeds and the others retry (see account) and
   * find it.
   */
  private async enforceForMissingUser(
    em: EntityManager,
    nas: RadiusNas,
    userId: string,
    report: SessionReport,
    now: Date,
  ): Promise<void> {
    if (report.type === 'Stop') return;
    const session = this.newSession(nas, userId, report, now, null);
    session.id = derivedId(nas.id, report.accountingUniqueId);
    const earlier = await this.unauthJobs.jobStatusesForSession(em, userId, session.id, 'enforcement');
    if (!earlier.every((status) => status === 'failed')) return;
    Object.assign(session, { status: 'expired', endedAt: now, terminateCause: SERVICE_TERMINATE_CAUSES.enforcement });
    const jobKey = `${report.accountingUniqueId}\u0000enforcement${earlier.length === 0 ? '' : `\u0000${earlier.length}`}`;
    await this.unauthJobs.enqueue(
      em,
      { userId, username: report.username, reason: 'enforcement', sessions: [session] },
      now,
      derivedId(nas.id, jobKey),
    );
    this.logger.warn(`NAS ${nas.name} reports a session of deleted user ${userId}: unauth job written`);
  }

  /** A session of `userId` as the packet reports it; it began no earlier than `notBefore` (its user's creation). */
  private newSession(
    nas: RadiusNas,
    userId: string,
    report: SessionReport,
    now: Date,
    notBefore: Date | null,
  ): SessionEntity {
    const startedAt = sessionStartedAt(now, report.sessionTime, report.delay, notBefore);
    return Object.assign(new SessionEntity(), {
      id: newId(),
      userId,
      venueId: nas.venueId,
      macAddress: report.macAddress,
      ipAddress: report.ipAddress,
      nasId: nas.name,
      status: 'active',
      startedAt,
      endedAt: null,
      nasClientId: nas.id,
      accountingUniqueId: report.accountingUniqueId,
      acctSessionId: report.acctSessionId,
      userName: report.username === null ? null : limited(report.username, 253),
      calledStationId: report.calledStationId,
      callingStationId: report.callingStationId,
      inputOctets: null,
      outputOctets: null,
      sessionTime: null,
      lastAccountingAt: now,
      terminateCause: null,
      // Where a Disconnect/CoA-Request for this session goes and how it names the NAS.
      nasIpAddress: report.nasIpAddress,
      nasSourceIp: recordedSource(nas),
      nasStoppedAt: null,
      disconnectJobId: null,
      usagePending: false,
      usageInputOctets: '0',
      usageOutputOctets: '0',
      usageSessionTime: 0,
    } satisfies SessionEntity);
  }

  private async recordDevice(em: EntityManager, userId: string, report: SessionReport, now: Date): Promise<void> {
    if (report.macAddress === '') return;
    await this.devices.recordSeen(em, newDevice(userId, report.macAddress, newId(), now));
  }
}

/**
 * The counters and time of a packet, never lower than what is stored (packets may arrive out of
 * order), flagged for the usage fold.
 */
function countersOf(report: SessionReport, stored: SessionEntity | null, now: Date): Partial<SessionEntity> {
  return {
    usagePending: true,
    inputOctets: maxCounter(stored?.inputOctets ?? null, report.inputOctets),
    outputOctets: maxCounter(stored?.outputOctets ?? null, report.outputOctets),
    sessionTime:
      report.sessionTime === null
        ? (stored?.sessionTime ?? null)
        : Math.max(stored?.sessionTime ?? 0, report.sessionTime),
    // A reordered packet's address is older than the stored one.
    ipAddress:
      stored !== null && reportsLess(stored, report)
        ? stored.ipAddress
        : (report.ipAddress ?? stored?.ipAddress ?? null),
    lastAccountingAt: latestOf(stored?.lastAccountingAt ?? null, now),
  };
}

function reportOf(type: SessionReport['type'], attributes: RadiusAttributes): SessionReport | null {
  const fullSessionId = attributes.string('Acct-Session-Id');
  const acctSessionId = limited(fullSessionId, 64);
  const username = attributes.string('User-Name');
  const unique = attributes.string('Acct-Unique-Session-Id');
  const accountingUniqueId =
    unique !== null && unique !== ''
      ? fitted(unique)
      : acctSessionId === null
        ? null
        : fitted(`${acctSessionId}\u0000${username ?? ''}\u0000${attributes.string('Calling-Station-Id') ?? ''}`, true);
  if (accountingUniqueId === null) return null;
  const callingStationId = attributes.string('Calling-Station-Id');
  const cause = attributes.enumerated('Acct-Terminate-Cause', TERMINATE_CAUSES);
  const rawCause = attributes.integer('Acct-Terminate-Cause');
  return {
    type,
    accountingUniqueId,
    // Kept only whole: a Disconnect naming a cut id would not match the NAS's session.
    acctSessionId: acctSessionId === fullSessionId ? acctSessionId : null,
    username,
    classUserId: userIdOfClass(attributes.strings('Class')),
    macAddress: (callingStationId === null ? null : normaliseMac(callingStationId)) ?? '',
    ipAddress: addressOrNull(attributes.string('Framed-IP-Address')),
    nasIpAddress: addressOrNull(attributes.string('NAS-IP-Address')),
    calledStationId: limited(attributes.string('Called-Station-Id'), 128),
    callingStationId: limited(callingStationId, 128),
    inputOctets: combineOctets(attributes.integer('Acct-Input-Octets'), attributes.integer('Acct-Input-Gigawords')),
    outputOctets: combineOctets(attributes.integer('Acct-Output-Octets'), attributes.integer('Acct-Output-Gigawords')),
    sessionTime: clampSessionTime(attributes.integer('Acct-Session-Time')),
    delay: Math.min(attributes.integer('Acct-Delay-Time') ?? 0, 86_400),
    terminateCause: type !== 'Stop' ? null : (cause ?? (rawCause === null ? null : String(rawCause))),
  };
}

function limited(value: string | null, length: number): string | null {
  return value === null ? null : value.slice(0, length);
}

/** An accounting id that fits its column: as it came when short enough, else its SHA-256. */
function fitted(value: string, alwaysHash = false): string {
  return !alwaysHash && value.length <= 64 ? value : createHash('sha256').update(value).digest('hex');
}

/** A stable session id (UUID-shaped) for a session that cannot be stored. */
function derivedId(nasId: string, accountingUniqueId: string): string {
  const hex = createHash('sha256').update(`${nasId}\u0000${accountingUniqueId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
