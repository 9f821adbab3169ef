import { Logger } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { exchange } from '../../../radius-packets/radius-client.js';
import { sessionTimeout } from '../../../radius-packets/session-timeout.js';
import {
  ANSWER_CODES,
  attributeValue,
  encodeRequest,
  RADIUS_CODES,
  type AttributeList,
} from '../../../radius-packets/radius-packet.js';
import type { SessionDispatchResult } from '../../delivery.js';
import type { UnauthJobSession } from '../../entities/unauth-job.entity.js';
import type { UnauthDispatcher, UnauthJobPayload } from '../unauth-dispatcher.js';
import type { DeliveryResult, UnauthJobsObserver } from '../../unauth-jobs-observer.js';
import type { DisconnectTarget, NasDirectory } from './nas-directory.js';

/** Error-Cause 503, Session Context Not Found: the NAS has no such session (any more). */
const SESSION_CONTEXT_NOT_FOUND = 503;

/**
 * The Error-Causes of a CoA-NAK that say the NAS does not do CoA (hostapd answers 401 to a
 * Session-Timeout change): Unsupported-Attribute, Unsupported-Service, Unsupported-Extension.
 */
export const COA_UNSUPPORTED_CAUSES: readonly number[] = [401, 405, 406];

export interface RadiusDispatcherOptions {
  timeoutMs: number;
  retries: number;
  /** The Session-Timeout a CoA sends for a user without expiresAt, and its cap otherwise. */
  maxSessionSeconds: number;
}

/**
 * RFC 5176: a Disconnect-Request (a CoA-Request with the new Session-Timeout for `coa` jobs) for each
 * session, to the NAS that reported it, signed with that NAS's secret. Each session's answer is its
 * result: ACK or NAK 503 done, NAK 401-407 failed (the request or the NAS's set-up is wrong; retrying
 * cannot help), other NAKs and silence retried with the job.
 */
export class RadiusDispatcher implements UnauthDispatcher {
  readonly name = 'radius';
  readonly perSession = true;
  readonly deliversCoa = true;
  private readonly logger = new Logger('RadiusDisconnect');

  constructor(
    private readonly directory: NasDirectory | null,
    private readonly options: RadiusDispatcherOptions,
    private readonly now: () => Date = () => new Date(),
    private readonly observer: UnauthJobsObserver | null = null,
  ) {}

  async dispatch(payload: UnauthJobPayload, signal: AbortSignal): Promise<SessionDispatchResult[]> {
    const directory = this.directory;
    if (directory === null) throw new Error('the NAS registry is not loaded in this process');
    return Promise.all(payload.sessions.map((session) => this.send(directory, payload, session, signal)));
  }

  private async send(
    directory: NasDirectory,
    payload: UnauthJobPayload,
    session: UnauthJobSession,
    signal: AbortSignal,
  ): Promise<SessionDispatchResult> {
    const result = (
      kind: SessionDispatchResult['result'],
      detail: string | null,
      nas: string | null,
      errorCause: number | null = null,
      counted: DeliveryResult = deliveryResultOf(kind, errorCause),
    ): SessionDispatchResult => {
      this.observer?.delivered(this.name, counted);
      return { sessionId: session.id, result: kind, errorCause, detail, nas };
    };

    if (!session.nasClientId)
      return result('skipped', 'no NAS reported this session (started by the CLI)', session.nasId);
    const target = await directory.disconnectTarget(session.nasClientId, {
      nasSourceIp: session.nasSourceIp ?? null,
      nasIpAddress: session.nasIpAddress ?? null,
    });
    if (target === null) return result('skipped', 'its NAS is no longer registered', session.nasId);
    if (target.coaPort === 0) {
      return result('skipped', `NAS ${target.name} has no RFC 5176 listener (CoA port 0)`, target.name);
    }
    if (target.host === null) {
      return result(
        'skipped',
        `no address of NAS ${target.name} was recorded inside its registered network`,
        target.name,
      );
    }
    if (!userNameOf(payload, session) && !session.acctSessionId) {
      return result('failed', 'neither User-Name nor Acct-Session-Id is known to identify the session', target.name);
    }
    const coa = payload.reason === 'coa';
    if (coa && !target.acceptsCoa) {
      return result(
        'skipped',
        `NAS ${target.name} does not accept CoA-Requests: the session ends at the user's expiresAt through the expiry sweep`,
        target.name,
      );
    }
    if (coa && payload.expiresAt && new Date(payload.expiresAt) <= this.now()) {
      return result(
        'skipped',
        "the new expiresAt has passed: the user's expiry ends the session with a Disconnect-Request",
        target.name,
      );
    }
    const code = coa ? RADIUS_CODES.coaRequest : RADIUS_CODES.disconnectRequest;
    let request: Buffer;
    try {
      request = encodeRequest(code, randomInt(256), this.attributes(payload, session, target), target.secret);
    } catch (error) {
      return result('failed', `cannot encode the request: ${(error as Error).message}`, target.name);
    }
    let answer;
    const sentAt = performance.now();
    try {
      answer = await exchange({
        host: target.host,
        port: target.coaPort,
        secret: target.secret,
        request,
        timeoutMs: this.options.timeoutMs,
        retries: this.options.retries,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      return result('retry', `NAS ${target.name}: ${(error as Error).message}`, target.name, null, 'error');
    }
    const what = coa ? 'CoA' : 'Disconnect';
    if (answer.response === null) {
      return result(
        'retry',
        `no answer from NAS ${target.name} after ${answer.transmissions} ${what}-Request(s)`,
        target.name,
        null,
        'timeout',
      );
    }
    this.observer?.roundTrip(coa ? 'coa' : 'disconnect', (performance.now() - sentAt) / 1000);
    const cause = attributeValue(answer.response, 'Error-Cause') as number | null;
    if (answer.response.code === ANSWER_CODES[code][0]) return result('acked', null, target.name, cause);
    if (cause === SESSION_CONTEXT_NOT_FOUND) return result('gone', null, target.name, cause);
    const detail = `NAS ${target.name} answered ${what}-NAK${cause === null ? '' : ` with Error-Cause ${cause}`}`;
    if (coa && cause !== null && COA_UNSUPPORTED_CAUSES.includes(cause)) {
      if (await directory.markRefusingCoa(session.nasClientId)) {
        this.logger.warn(
          `${detail}: it does not support CoA, so it is now marked as not accepting CoA. Changes of expiresAt no ` +
            `longer send it CoA-Requests; its sessions end at expiresAt through the expiry sweep's Disconnect ` +
            `(hotspot nas set ${target.name} --coa undoes the mark).`,
        );
      }
      return result('failed', `${detail}: it does not accept CoA (marked so)`, target.name, cause);
    }
    if (cause !== null && cause >= 401 && cause <= 407) {
      this.logger.warn(`${detail} for session ${session.id} of job ${payload.jobId}: check the NAS's RFC 5176 set-up`);
      return result('failed', detail, target.name, cause);
    }
    return result('retry', detail, target.name, cause, 'nak');
  }

  /**
   * Identification attributes only (anything else makes a NAS answer NAK 401), each only when known:
   * every one sent must match the NAS's session; then the CoA's Session-Timeout and the Event-Timestamp. UniFi and Cisco find sessions by the client's MAC,
   * so they get Calling-Station-Id too.
   */
  private attributes(payload: UnauthJobPayload, session: UnauthJobSession, target: DisconnectTarget): AttributeList {
    const attributes: Array<AttributeList[number]> = [];
    const userName = userNameOf(payload, session);
    if (userName) attributes.push(['User-Name', userName]);
    if (session.acctSessionId) attributes.push(['Acct-Session-Id', session.acctSessionId]);
    if (session.nasIpAddress && isIPv4(session.nasIpAddress)) attributes.push(['NAS-IP-Address', session.nasIpAddress]);
    if ((target.vendor === 'unifi' || target.vendor === 'cisco') && session.callingStationId) {
      attributes.push(['Calling-Station-Id', session.callingStationId]);
    }
    const now = this.now();
    if (payload.reason === 'coa') {
      const expiresAt = payload.expiresAt ? new Date(payload.expiresAt) : null;
      attributes.push(['Session-Timeout', sessionTimeout(expiresAt, now, this.options.maxSessionSeconds)]);
    }
    // Against replays (RFC 5176 §3.5): a NAS set to require it (hostapd's
    // radius_das_require_event_timestamp) drops a request without it. Set once per request, so the
    // retransmissions stay byte-identical; each attempt of the job sends the time of its own.
    attributes.push(['Event-Timestamp', Math.floor(now.getTime() / 1000)]);
    return attributes;
  }
}

/**
 * The User-Name the NAS holds for the session: the one its accounting reported, else (a session
 * recorded before that was kept) the user's username when the job was written.
 */
function userNameOf(payload: UnauthJobPayload, session: UnauthJobSession): string | null {
  return session.userName ?? payload.username ?? null;
}

/**
 * How a metric counts a session's result when the code that produced it says nothing more: ACK and
 * NAK 503 (no such session) both leave the session off; a result with an Error-Cause is a NAK.
 */
function deliveryResultOf(kind: SessionDispatchResult['result'], errorCause: number | null): DeliveryResult {
  switch (kind) {
    case 'acked':
    case 'gone':
      return 'ack';
    case 'skipped':
    case 'stopped':
      return 'skipped';
    case 'failed':
    case 'retry':
      return errorCause === null ? 'error' : 'nak';
  }
}
