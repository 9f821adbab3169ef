import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';

/**
 * RADIUS packets (RFC 2865) as far as Disconnect and CoA (RFC 5176) need them: a handful of
 * attribute types, the Request and Response Authenticators, and the Message-Authenticator (RFC 3579
 * as RFC 5176 applies it). Pure functions on Buffers; never mutates what it is given.
 */

export const RADIUS_CODES = {
  accessRequest: 1,
  accessAccept: 2,
  accessReject: 3,
  disconnectRequest: 40,
  disconnectAck: 41,
  disconnectNak: 42,
  coaRequest: 43,
  coaAck: 44,
  coaNak: 45,
} as const;

/** The answers a request may get: [ACK, NAK]. */
export const ANSWER_CODES: Readonly<Record<number, readonly [number, number]>> = {
  [RADIUS_CODES.disconnectRequest]: [RADIUS_CODES.disconnectAck, RADIUS_CODES.disconnectNak],
  [RADIUS_CODES.coaRequest]: [RADIUS_CODES.coaAck, RADIUS_CODES.coaNak],
};

export type AttributeKind = 'string' | 'integer' | 'ipaddr' | 'octets';

/** The attributes this service sends or reads, from the standard dictionary. */
const ATTRIBUTES = {
  'User-Name': { type: 1, kind: 'string' },
  'NAS-IP-Address': { type: 4, kind: 'ipaddr' },
  'Framed-IP-Address': { type: 8, kind: 'ipaddr' },
  'Reply-Message': { type: 18, kind: 'string' },
  State: { type: 24, kind: 'octets' },
  'Session-Timeout': { type: 27, kind: 'integer' },
  'Called-Station-Id': { type: 30, kind: 'string' },
  'Calling-Station-Id': { type: 31, kind: 'string' },
  'NAS-Identifier': { type: 32, kind: 'string' },
  'Acct-Session-Id': { type: 44, kind: 'string' },
  'Event-Timestamp': { type: 55, kind: 'integer' },
  'Message-Authenticator': { type: 80, kind: 'octets' },
  'Error-Cause': { type: 101, kind: 'integer' },
} as const satisfies Record<string, { type: number; kind: AttributeKind }>;

export type AttributeName = keyof typeof ATTRIBUTES;
export type AttributeValue = string | number | Buffer;
export type AttributeList = ReadonlyArray<readonly [AttributeName, AttributeValue]>;

export interface RadiusPacket {
  code: number;
  identifier: number;
  authenticator: Buffer;
  /** In packet order; the raw values (see attributeValue for typed ones). */
  attributes: Array<{ type: number; value: Buffer }>;
}

const HEADER_LENGTH = 20;
const MAX_PACKET_LENGTH = 4096;
const MA_TYPE = ATTRIBUTES['Message-Authenticator'].type;
const MA_LENGTH = 16;
const ZERO_AUTHENTICATOR = Buffer.alloc(16);

/** One attribute as type, length, value; RangeError for a value its type cannot hold. */
export function encodeAttribute(name: AttributeName, value: AttributeValue): Buffer {
  const { type, kind } = ATTRIBUTES[name];
  const data = encodeValue(name, kind, value);
  if (data.length < 1 || data.length > 253) throw new RangeError(`${name} must be 1-253 octets long`);
  return Buffer.concat([Buffer.from([type, data.length + 2]), data]);
}

function encodeValue(name: string, kind: AttributeKind, value: AttributeValue): Buffer {
  switch (kind) {
    case 'string':
      if (typeof value !== 'string') throw new RangeError(`${name} takes a string`);
      return Buffer.from(value, 'utf8');
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
        throw new RangeError(`${name} takes an integer from 0 to 2^32-1`);
      }
      const data = Buffer.alloc(4);
      data.writeUInt32BE(value);
      return data;
    }
    case 'ipaddr':
      if (typeof value !== 'string' || !isIPv4(value)) throw new RangeError(`${name} takes an IPv4 address`);
      return Buffer.from(value.split('.').map(Number));
    case 'octets':
      if (!Buffer.isBuffer(value)) throw new RangeError(`${name} takes octets`);
      return Buffer.from(value);
  }
}

/**
 * A Disconnect-Request or CoA-Request: Message-Authenticator computed first, over the packet with a
 * zero Request Authenticator and a zero MA, then the Request Authenticator
 * MD5(Code|Identifier|Length|16 zero octets|Attributes|secret) over the packet with the MA in place.
 */
export function encodeRequest(code: number, identifier: number, attributes: AttributeList, secret: string): Buffer {
  const packet = assemble(code, identifier, ZERO_AUTHENTICATOR, attributes);
  signMessageAuthenticator(packet, secret);
  md5(packet, secret).copy(packet, 4);
  return packet;
}

/**
 * An answer to `request` (what a NAS sends; the tests' NAS simulator uses it): its MA is computed
 * with the request's authenticator in the header, then the Response Authenticator
 * MD5(Code|Identifier|Length|Request Authenticator|Attributes|secret) replaces it.
 */
export function encodeResponse(code: number, request: RadiusPacket, attributes: AttributeList, secret: string): Buffer {
  const packet = assemble(code, request.identifier, request.authenticator, attributes);
  signMessageAuthenticator(packet, secret);
  md5(packet, secret).copy(packet, 4);
  return packet;
}

function assemble(code: number, identifier: number, authenticator: Buffer, attributes: AttributeList): Buffer {
  const encoded = attributes
    .filter(([name]) => name !== 'Message-Authenticator')
    .map(([name, value]) => encodeAttribute(name, value));
  encoded.push(Buffer.concat([Buffer.from([MA_TYPE, MA_LENGTH + 2]), Buffer.alloc(MA_LENGTH)]));
  const length = HEADER_LENGTH + encoded.reduce((sum, attribute) => sum + attribute.length, 0);
  if (length > MAX_PACKET_LENGTH) throw new RangeError('RADIUS packet longer than 4096 octets');
  const header = Buffer.alloc(HEADER_LENGTH);
  header.writeUInt8(code, 0);
  header.writeUInt8(identifier & 0xff, 1);
  header.writeUInt16BE(length, 2);
  authenticator.copy(header, 4);
  return Buffer.concat([header, ...encoded]);
}

/** Fills the (zeroed) Message-Authenticator with HMAC-MD5(secret, packet as it stands). */
function signMessageAuthenticator(packet: Buffer, secret: string): void {
  const offset = messageAuthenticatorOffset(packet);
  if (offset === null) return;
  createHmac('md5', secret).update(packet).digest().copy(packet, offset);
}

/** Where the value of the first Message-Authenticator starts, or null. */
function messageAuthenticatorOffset(packet: Buffer): number | null {
  for (let offset = HEADER_LENGTH; offset + 2 <= packet.length; offset += packet[offset + 1]) {
    if (packet[offset + 1] < 2) return null;
    if (packet[offset] === MA_TYPE && packet[offset + 1] === MA_LENGTH + 2) return offset + 2;
  }
  return null;
}

function md5(packet: Buffer, secret: string): Buffer {
  return createHash('md5').update(packet).update(secret, 'utf8').digest();
}

/** The packet's header and attributes, or null when it is malformed (length fields out of place). */
export function decodePacket(data: Buffer): RadiusPacket | null {
  if (data.length < HEADER_LENGTH) return null;
  const length = data.readUInt16BE(2);
  if (length < HEADER_LENGTH || length > data.length || length > MAX_PACKET_LENGTH) return null;
  const attributes: RadiusPacket['attributes'] = [];
  for (let offset = HEADER_LENGTH; offset < length;) {
    if (offset + 2 > length) return null;
    const attributeLength = data[offset + 1];
    if (attributeLength < 2 || offset + attributeLength > length) return null;
    attributes.push({ type: data[offset], value: Buffer.from(data.subarray(offset + 2, offset + attributeLength)) });
    offset += attributeLength;
  }
  return {
    code: data[0],
    identifier: data[1],
    authenticator: Buffer.from(data.subarray(4, 20)),
    attributes,
  };
}

/** The first value of attribute `name`, typed by its kind; null when absent or malformed. */
export function attributeValue(packet: RadiusPacket, name: AttributeName): AttributeValue | null {
  const { type, kind } = ATTRIBUTES[name];
  const found = packet.attributes.find((attribute) => attribute.type === type);
  if (found === undefined) return null;
  switch (kind) {
    case 'string':
      return found.value.toString('utf8');
    case 'integer':
      return found.value.length === 4 ? found.value.readUInt32BE(0) : null;
    case 'ipaddr':
      return found.value.length === 4 ? [...found.value].join('.') : null;
    case 'octets':
      return Buffer.from(found.value);
  }
}

/**
 * Whether a Disconnect/CoA-Request verifies with `secret`: its Request Authenticator, and its
 * Message-Authenticator (required when `requireMessageAuthenticator`).
 */
export function verifyRequest(data: Buffer, secret: string, requireMessageAuthenticator = true): boolean {
  const packet = decodePacket(data);
  if (packet === null) return false;
  const length = data.readUInt16BE(2);
  const copy = Buffer.from(data.subarray(0, length));
  ZERO_AUTHENTICATOR.copy(copy, 4);
  if (!same(md5(copy, secret), packet.authenticator)) return false;
  return messageAuthenticatorVerifies(copy, secret, requireMessageAuthenticator);
}

/**
 * Whether `data` is a genuine answer to the request `request` (as sent): an ACK or NAK code for it,
 * the same Identifier, a Response Authenticator computed from the request's, and a valid
 * Message-Authenticator when present.
 */
export function verifyResponse(data: Buffer, request: Buffer, secret: string): boolean {
  const packet = decodePacket(data);
  const sent = decodePacket(request);
  if (packet === null || sent === null) return false;
  if (!(ANSWER_CODES[sent.code] ?? []).includes(packet.code) || packet.identifier !== sent.identifier) return false;
  const length = data.readUInt16BE(2);
  const copy = Buffer.from(data.subarray(0, length));
  sent.authenticator.copy(copy, 4);
  if (!same(md5(copy, secret), packet.authenticator)) return false;
  return messageAuthenticatorVerifies(copy, secret, false);
}

/** `packet` has its header authenticator set as the MA was computed over; the MA is checked on a copy. */
function messageAuthenticatorVerifies(packet: Buffer, secret: string, required: boolean): boolean {
  const offset = messageAuthenticatorOffset(packet);
  if (offset === null) return !required;
  const given = Buffer.from(packet.subarray(offset, offset + MA_LENGTH));
  const zeroed = Buffer.from(packet);
  zeroed.fill(0, offset, offset + MA_LENGTH);
  return same(createHmac('md5', secret).update(zeroed).digest(), given);
}

function same(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
