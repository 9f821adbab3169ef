import type { NextFunction, Request, Response } from 'express';
import { ERROR_MESSAGES } from '../errors/api-error.js';
import type { ApiRequest } from '../request-context.js';
import { type Admission, SHED_RETRY_AFTER_SECONDS } from './admission.js';
import { admissionTierOf } from './admission.rules.js';
import { Deadline } from './deadline.js';
import {
  announcedSentAt,
  announcedTimeoutMs,
  REQUEST_SENT_AT_HEADER,
  REQUEST_TIMEOUT_HEADER,
  type RequestAges,
} from './request-deadline.js';

/** A request as the admission leaves it: with its deadline, which the routes hand to the work they start. */
export interface AdmittedRequest extends ApiRequest {
  deadline: Deadline;
}

/** Writes the "busy" answer of a request the admission turns away (the console answers a page of its own). */
export type BusyAnswer = (req: Request, res: Response) => void;

/**
 * The first decision on every request, before its body is read or its token checked: its deadline
 * (the wait its caller announced, less the time it has already been on its way; or none), then
 * 503 with Retry-After when its caller has already stopped waiting, or when its tier is being shed
 * (admission.rules.ts). Health checks always pass; RADIUS only ever fails the first test.
 */
export function admissionMiddleware(admission: Admission, ages: RequestAges, consoleBusy: BusyAnswer) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const tier = admissionTierOf(req.method, req.path);
    const deadline = deadlineOf(req, ages, admission);
    (req as AdmittedRequest).deadline = deadline;
    if (tier === 'probe') {
      next();
      return;
    }
    if (deadline.expired()) {
      admission.deadlineExpired(tier === 'radius' ? 'radius' : 'api', 'admission');
      answerBusy(req, res, consoleBusy);
      return;
    }
    if (tier !== 'radius' && !admission.admit(tier)) {
      answerBusy(req, res, consoleBusy);
      return;
    }
    next();
  };
}

function deadlineOf(req: Request, ages: RequestAges, admission: Admission): Deadline {
  const socket = req.socket;
  // The caller hung up: curl (FreeRADIUS) closes the connection when its timeout passes. An HTTP/1.1
  // client ends its side before the answer only when it gives up (Node destroys the socket a moment later).
  const hungUp = () => socket.readableEnded || socket.destroyed;
  const timeoutMs = announcedTimeoutMs(req.headers[REQUEST_TIMEOUT_HEADER]);
  if (timeoutMs === null) return new Deadline(Number.POSITIVE_INFINITY, hungUp);
  const sentAt = announcedSentAt(req.headers[REQUEST_SENT_AT_HEADER]);
  const ageMs = sentAt === null ? 0 : ages.ageMs(socket.remoteAddress ?? '', sentAt, Date.now());
  if (sentAt !== null) admission.requestWaited(ageMs);
  return new Deadline(performance.now() + timeoutMs - ageMs, hungUp);
}

function answerBusy(req: Request, res: Response, consoleBusy: BusyAnswer): void {
  res.locals.shed = true;
  res.setHeader('Retry-After', String(SHED_RETRY_AFTER_SECONDS));
  // In any letter case, as Express routes it.
  const start = req.path.slice(0, '/admin/'.length).toLowerCase();
  if (start === '/admin' || start === '/admin/') {
    consoleBusy(req, res);
    return;
  }
  res.status(503).json({ success: false, message: ERROR_MESSAGES.serviceUnavailable });
}
