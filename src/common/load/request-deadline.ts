/**
 * A caller may say how long it waits for an answer, as the generated FreeRADIUS configuration does
 * for every REST call (its rlm_rest timeout): `X-Request-Timeout-Ms`, counted from the moment it
 * sent the request, which it may give as `X-Request-Sent-At` (Unix time in milliseconds, by its
 * clock). Without the send time the wait is counted from the request's arrival here.
 */
export const REQUEST_TIMEOUT_HEADER = 'x-request-timeout-ms';
export const REQUEST_SENT_AT_HEADER = 'x-request-sent-at';

/**
 * FreeRADIUS's send time is %c (seconds, from a clock that ticks in steps of a few milliseconds) and %C
 * (microseconds, from the exact clock): in the first milliseconds of a second the first can still
 * show the previous second, and the sum is then one second early. A send time in the first
 * milliseconds of a second that looks a second or more old is read a second later.
 */
const SECOND_STEP_MS = 1000;
const SECOND_STEP_WINDOW_MS = 10;

/** The longest wait a caller may announce (ten minutes); beyond, the header is ignored. */
const MAX_TIMEOUT_MS = 600_000;
/** How long the offsets of a peer's clock are remembered: two windows of this length. */
const OFFSET_WINDOW_MS = 60_000;
/** Peers whose clock offsets are tracked at once (FreeRADIUS servers, not guests: a few). */
const MAX_PEERS = 256;

/** The wait a caller announced, in ms; null when it said nothing usable. */
export function announcedTimeoutMs(header: string | string[] | undefined): number | null {
  if (typeof header !== 'string' || !/^\d{1,6}$/.test(header)) return null;
  const ms = Number(header);
  return ms >= 1 && ms <= MAX_TIMEOUT_MS ? ms : null;
}

/** The send time a caller gave (Unix ms, decimals allowed), or null. */
export function announcedSentAt(header: string | string[] | undefined): number | null {
  if (typeof header !== 'string' || !/^\d{10,16}(\.\d{1,6})?$/.test(header)) return null;
  return Number(header);
}

interface PeerOffsets {
  /** Start of the current window (arrival time, ms). */
  since: number;
  current: number;
  previous: number;
}

/**
 * How long a request has been on its way since its caller sent it, with the caller's clock allowed
 * to differ from ours. Each peer's smallest (arrival − send time) over the last one to two minutes
 * stands for its clock's offset plus the quickest delivery; a request's age is how much later than
 * that it arrived: the time it waited in sockets and in this process before being read. A peer
 * whose clock is off by any constant amount is judged right after its first request, and a request
 * is never judged older than it is (at worst younger, while a peer's every request is late).
 */
export class RequestAges {
  private readonly peers = new Map<string, PeerOffsets>();

  /** Milliseconds since the peer sent the request (never negative); 0 for a peer's first request. */
  ageMs(peer: string, sentAt: number, arrivedAt: number): number {
    let offset = arrivedAt - sentAt;
    let known = this.peers.get(peer);
    if (known === undefined) {
      if (this.peers.size >= MAX_PEERS) this.peers.delete(this.peers.keys().next().value as string);
      known = { since: arrivedAt, current: offset, previous: offset };
      this.peers.set(peer, known);
    }
    if (arrivedAt - known.since >= OFFSET_WINDOW_MS) {
      // A whole window without a request: its minimum is stale, start both afresh.
      known.previous = arrivedAt - known.since >= 2 * OFFSET_WINDOW_MS ? offset : known.current;
      known.current = offset;
      known.since = arrivedAt;
    }
    const baseline = Math.min(known.current, known.previous);
    if (offset - baseline >= SECOND_STEP_MS && sentAt % SECOND_STEP_MS < SECOND_STEP_WINDOW_MS) {
      offset -= SECOND_STEP_MS;
    }
    known.current = Math.min(known.current, offset);
    return Math.max(0, offset - Math.min(known.current, known.previous));
  }
}
