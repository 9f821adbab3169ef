// A small RADIUS load generator over UDP, as a NAS sends: Access-Requests (PAP, with a
// Message-Authenticator) and Accounting-Requests, from sockets bound to a NAS's own loopback address,
// either at a fixed rate whatever the answers do (open loop) or with a fixed number in flight (closed
// loop, for saturation). No retransmissions: a request without an answer in `timeoutMs` is an error.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIPv4 } from 'node:net';

export const CODES = {
  accessRequest: 1,
  accessAccept: 2,
  accessReject: 3,
  accountingRequest: 4,
  accountingResponse: 5,
};

/** The attributes the bench sends, from the standard dictionary (RFC 2865, 2866). */
const ATTRIBUTES = {
  'User-Name': [1, 'string'],
  'User-Password': [2, 'password'],
  'NAS-IP-Address': [4, 'ipaddr'],
  'NAS-Port': [5, 'integer'],
  'Framed-IP-Address': [8, 'ipaddr'],
  Class: [25, 'octets'],
  'Called-Station-Id': [30, 'string'],
  'Calling-Station-Id': [31, 'string'],
  'NAS-Identifier': [32, 'string'],
  'Acct-Status-Type': [40, 'integer'],
  'Acct-Input-Octets': [42, 'integer'],
  'Acct-Output-Octets': [43, 'integer'],
  'Acct-Session-Id': [44, 'string'],
  'Acct-Session-Time': [46, 'integer'],
  'Acct-Input-Packets': [47, 'integer'],
  'Acct-Output-Packets': [48, 'integer'],
  'Event-Timestamp': [55, 'integer'],
  'NAS-Port-Type': [61, 'integer'],
};
const MESSAGE_AUTHENTICATOR = 80;
export const ACCT_STATUS = { Start: 1, Stop: 2, 'Interim-Update': 3 };

function encodeValue(kind, value, secret, authenticator) {
  switch (kind) {
    case 'string':
      return Buffer.from(String(value), 'utf8');
    case 'octets':
      return Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8');
    case 'integer': {
      const data = Buffer.alloc(4);
      data.writeUInt32BE(value >>> 0);
      return data;
    }
    case 'ipaddr':
      if (!isIPv4(value)) throw new RangeError(`not an IPv4 address: ${value}`);
      return Buffer.from(value.split('.').map(Number));
    case 'password':
      return hidePassword(String(value), secret, authenticator);
  }
  throw new RangeError(`unknown attribute kind ${kind}`);
}

/** RFC 2865 §5.2: the password padded to 16 octets, XORed block by block with MD5(secret + previous). */
function hidePassword(password, secret, authenticator) {
  const clear = Buffer.from(password, 'utf8');
  const padded = Buffer.alloc(Math.max(16, Math.ceil(clear.length / 16) * 16));
  clear.copy(padded);
  const hidden = Buffer.alloc(padded.length);
  let previous = authenticator;
  for (let offset = 0; offset < padded.length; offset += 16) {
    const mask = createHash('md5').update(secret, 'utf8').update(previous).digest();
    for (let i = 0; i < 16; i += 1) hidden[offset + i] = padded[offset + i] ^ mask[i];
    previous = hidden.subarray(offset, offset + 16);
  }
  return hidden;
}

function encodeAttributes(attributes, secret, authenticator) {
  return Buffer.concat(
    Object.entries(attributes).map(([name, value]) => {
      const [type, kind] = ATTRIBUTES[name] ?? [];
      if (type === undefined) throw new RangeError(`the load generator does not know ${name}`);
      const data = encodeValue(kind, value, secret, authenticator);
      return Buffer.concat([Buffer.from([type, data.length + 2]), data]);
    }),
  );
}

/** An Access-Request: random Request Authenticator, Message-Authenticator over the whole packet (RFC 3579). */
export function accessRequest(identifier, attributes, secret) {
  const authenticator = randomBytes(16);
  const body = Buffer.concat([
    encodeAttributes(attributes, secret, authenticator),
    Buffer.from([MESSAGE_AUTHENTICATOR, 18]),
    Buffer.alloc(16),
  ]);
  const packet = Buffer.concat([header(CODES.accessRequest, identifier, body.length), authenticator, body]);
  createHmac('md5', secret)
    .update(packet)
    .digest()
    .copy(packet, packet.length - 16);
  return packet;
}

/** An Accounting-Request: Request Authenticator = MD5(Code|Identifier|Length|16 zero octets|Attributes|secret). */
export function accountingRequest(identifier, attributes, secret) {
  const body = encodeAttributes(attributes, secret, null);
  const packet = Buffer.concat([header(CODES.accountingRequest, identifier, body.length), Buffer.alloc(16), body]);
  createHash('md5').update(packet).update(secret, 'utf8').digest().copy(packet, 4);
  return packet;
}

function header(code, identifier, bodyLength) {
  const data = Buffer.alloc(4);
  data.writeUInt8(code, 0);
  data.writeUInt8(identifier, 1);
  data.writeUInt16BE(20 + bodyLength, 2);
  return data;
}

/** Latency percentiles (ms) of a list of samples. */
export function percentiles(samples) {
  if (samples.length === 0) return { p50: null, p99: null, max: null };
  const sorted = Float64Array.from(samples).sort();
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;
  return { p50: at(0.5), p99: at(0.99), max: Math.round(sorted[sorted.length - 1] * 100) / 100 };
}

/**
 * A NAS's side of the load: sockets bound to `address` (its own, within 127.0.0.0/8), each with
 * its 256 Identifiers, sending to `server` ({ host, authPort, acctPort }) with `secret`.
 */
export class RadiusSender {
  #sockets = [];

  static async open({ address = '127.0.0.1', sockets = 1, server, secret, timeoutMs = 2000 }) {
    const sender = new RadiusSender(server, secret, timeoutMs);
    for (let i = 0; i < sockets; i += 1) {
      const socket = createSocket('udp4');
      // Requests awaiting an answer, by Identifier: each socket has its own 256.
      const state = { socket, next: 0, pending: new Map() };
      socket.on('message', (data) => sender.#answer(state, data));
      await new Promise((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(0, address, resolve);
      });
      sender.#sockets.push(state);
    }
    return sender;
  }

  constructor(server, secret, timeoutMs) {
    this.server = server;
    this.secret = secret;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Sends one request (`kind` 'auth' or 'acct'); resolves with { code, ms } when the answer comes, or
   * { code: null, ms } after the timeout (or when every Identifier of every socket is in use).
   * `startedAt` (performance.now()) is when the request was due: an open loop measures from its schedule.
   */
  send(kind, attributes, startedAt = performance.now()) {
    const state = this.#sockets.find((candidate) => candidate.pending.size < 256);
    if (state === undefined) return Promise.resolve({ code: null, ms: performance.now() - startedAt });
    let identifier = state.next;
    while (state.pending.has(identifier)) identifier = (identifier + 1) & 0xff;
    state.next = (identifier + 1) & 0xff;
    const packet =
      kind === 'auth'
        ? accessRequest(identifier, attributes, this.secret)
        : accountingRequest(identifier, attributes, this.secret);
    return new Promise((resolve) => {
      const settle = (code) => {
        clearTimeout(timer);
        state.pending.delete(identifier);
        resolve({ code, ms: performance.now() - startedAt });
      };
      const timer = setTimeout(() => settle(null), this.timeoutMs);
      state.pending.set(identifier, { settle, authenticator: packet.subarray(4, 20) });
      const port = kind === 'auth' ? this.server.authPort : this.server.acctPort;
      state.socket.send(packet, port, this.server.host);
    });
  }

  /**
   * Settles the request an answer is for, as a NAS checks it: the Identifier finds it, the Response
   * Authenticator must verify against its Request Authenticator (so a late answer to a request that
   * timed out never settles a newer one with the same Identifier).
   */
  #answer(state, data) {
    const length = data.length < 20 ? 0 : data.readUInt16BE(2);
    if (length < 20 || length > data.length) return;
    const pending = state.pending.get(data[1]);
    if (pending === undefined) return;
    const expected = createHash('md5')
      .update(data.subarray(0, 4))
      .update(pending.authenticator)
      .update(data.subarray(20, length))
      .update(this.secret, 'utf8')
      .digest();
    if (expected.equals(data.subarray(4, 20))) pending.settle(data[0]);
  }

  async close() {
    await Promise.all(this.#sockets.map(({ socket }) => new Promise((resolve) => socket.close(resolve))));
  }
}

/** What one class of requests got: counts, answer codes, and latency samples in ms. */
export function newTally(name) {
  return { name, sent: 0, answered: 0, errors: 0, codes: {}, samples: [] };
}

export function record(tally, outcome, expectedCode) {
  tally.sent += 1;
  if (outcome.code === null) {
    tally.errors += 1;
    return;
  }
  tally.answered += 1;
  tally.codes[outcome.code] = (tally.codes[outcome.code] ?? 0) + 1;
  if (outcome.code !== expectedCode) tally.errors += 1;
  tally.samples.push(outcome.ms);
}

export function summarise(tally, seconds) {
  return {
    name: tally.name,
    sent: tally.sent,
    rate: Math.round((tally.answered / seconds) * 10) / 10,
    errors: tally.errors,
    codes: tally.codes,
    ...percentiles(tally.samples),
  };
}

/**
 * Starts `fire()` `rate` times a second for `seconds`, on a 10 ms schedule, whatever the answers do;
 * resolves when the last request has settled. `fire(dueAt)` returns a promise.
 */
export async function openLoop(rate, seconds, fire) {
  const started = performance.now();
  const total = Math.round(rate * seconds);
  const inFlight = [];
  let fired = 0;
  while (fired < total) {
    const elapsed = performance.now() - started;
    const due = Math.min(total, Math.floor((elapsed / 1000) * rate) + 1);
    for (; fired < due; fired += 1) inFlight.push(fire(started + (fired / rate) * 1000));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await Promise.all(inFlight);
}

/** Keeps `concurrency` calls of `fire()` in flight for `seconds`; resolves when the last has settled. */
export async function closedLoop(concurrency, seconds, fire) {
  const until = performance.now() + seconds * 1000;
  const lane = async () => {
    while (performance.now() < until) await fire(performance.now());
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}
