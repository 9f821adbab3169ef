import { createHash, createHmac } from 'node:crypto';
import {
  attributeValue,
  decodePacket,
  encodeAttribute,
  encodeRequest,
  encodeResponse,
  RADIUS_CODES,
  verifyRequest,
  verifyResponse,
  type RadiusPacket,
} from './radius-packet.js';

/**
 * Known vectors: what radclient (FreeRADIUS 3.2.1) put on the wire, captured from a UDP socket, for
 *   printf 'User-Name = "alice"\nAcct-Session-Id = "81200001"\nNAS-IP-Address = 192.0.2.10\n
 *           Message-Authenticator = 0x00\n' | radclient 127.0.0.1:18999 disconnect s3cr3t
 * (Identifier 21) and a CoA-Request with a non-ASCII User-Name and Session-Timeout (Identifier 190).
 */
const RADCLIENT_DISCONNECT =
  '2815003d738123b8e01416f9939c18e2671301810107616c6963652c0a38313230303030310406c000020a5012b2ebc930a21e0efbea8fc545cde8d89c';
const RADCLIENT_COA =
  '2bbe003df1d9dd3139e3083f0c587db151c5be0b01076a6f73c3a92c0a38313230303030321b0600000e105012d7bde84b8c6cd9e72d483c70fa630639';

const disconnect = () =>
  encodeRequest(
    RADIUS_CODES.disconnectRequest,
    21,
    [
      ['User-Name', 'alice'],
      ['Acct-Session-Id', '81200001'],
      ['NAS-IP-Address', '192.0.2.10'],
    ],
    's3cr3t',
  );

/** RFC 2865/5176 by hand, independent of the encoder: MD5(Code|Id|Length|RequestAuth|Attributes|secret). */
function responseAuthenticator(packet: Buffer, requestAuthenticator: Buffer, secret: string): Buffer {
  const copy = Buffer.from(packet);
  requestAuthenticator.copy(copy, 4);
  return createHash('md5').update(copy).update(secret).digest();
}

describe('RADIUS packets (RFC 2865, 3579, 5176)', () => {
  it('encodes a Disconnect-Request byte for byte as radclient does', () => {
    expect(disconnect().toString('hex')).toBe(RADCLIENT_DISCONNECT);
  });

  it('encodes a CoA-Request with a UTF-8 User-Name and an integer byte for byte as radclient does', () => {
    const coa = encodeRequest(
      RADIUS_CODES.coaRequest,
      190,
      [
        ['User-Name', 'josé'],
        ['Acct-Session-Id', '81200002'],
        ['Session-Timeout', 3600],
      ],
      'another secret',
    );
    expect(coa.toString('hex')).toBe(RADCLIENT_COA);
  });

  it('computes the Request Authenticator over a zero authenticator and the MA over both zeroed', () => {
    const packet = disconnect();
    const zeroed = Buffer.from(packet);
    zeroed.fill(0, 4, 20);
    expect(createHash('md5').update(zeroed).update('s3cr3t').digest()).toEqual(packet.subarray(4, 20));
    const maOffset = packet.length - 16;
    expect(packet.subarray(maOffset - 2, maOffset)).toEqual(Buffer.from([80, 18]));
    zeroed.fill(0, maOffset);
    expect(createHmac('md5', 's3cr3t').update(zeroed).digest()).toEqual(packet.subarray(maOffset));
  });

  it('never mutates the attribute list it is given', () => {
    const attributes = [['User-Name', 'alice'] as const, ['Acct-Session-Id', 'x'] as const];
    const frozen = JSON.stringify(attributes);
    encodeRequest(40, 1, attributes, 's');
    expect(JSON.stringify(attributes)).toBe(frozen);
  });

  it("verifies its own requests and radclient's, and refuses them with another secret or one bit changed", () => {
    expect(verifyRequest(disconnect(), 's3cr3t')).toBe(true);
    expect(verifyRequest(Buffer.from(RADCLIENT_COA, 'hex'), 'another secret')).toBe(true);
    expect(verifyRequest(disconnect(), 'wrong')).toBe(false);
    const tampered = disconnect();
    tampered[25] ^= 1;
    expect(verifyRequest(tampered, 's3cr3t')).toBe(false);
  });

  it('refuses a request whose MA is wrong even when its Request Authenticator is right', () => {
    const packet = disconnect();
    packet[packet.length - 1] ^= 1;
    const zeroed = Buffer.from(packet);
    zeroed.fill(0, 4, 20);
    createHash('md5').update(zeroed).update('s3cr3t').digest().copy(packet, 4);
    expect(verifyRequest(packet, 's3cr3t')).toBe(false);
  });

  it('encodes answers with the Response Authenticator of RFC 5176 and an MA over the request authenticator', () => {
    const request = disconnect();
    const decoded = decodePacket(request) as RadiusPacket;
    const nak = encodeResponse(RADIUS_CODES.disconnectNak, decoded, [['Error-Cause', 503]], 's3cr3t');
    expect(nak[0]).toBe(42);
    expect(nak[1]).toBe(21);
    expect(responseAuthenticator(nak, decoded.authenticator, 's3cr3t')).toEqual(nak.subarray(4, 20));
    const withRequestAuth = Buffer.from(nak);
    decoded.authenticator.copy(withRequestAuth, 4);
    withRequestAuth.fill(0, nak.length - 16);
    expect(createHmac('md5', 's3cr3t').update(withRequestAuth).digest()).toEqual(nak.subarray(nak.length - 16));
    expect(attributeValue(decodePacket(nak) as RadiusPacket, 'Error-Cause')).toBe(503);
    expect(verifyResponse(nak, request, 's3cr3t')).toBe(true);
  });

  describe('an answer that does not verify is refused', () => {
    const request = disconnect();
    const decoded = decodePacket(request) as RadiusPacket;
    const ack = () => encodeResponse(RADIUS_CODES.disconnectAck, decoded, [], 's3cr3t');

    it('wrong Response Authenticator', () => {
      const answer = ack();
      answer[4] ^= 0xff;
      expect(verifyResponse(answer, request, 's3cr3t')).toBe(false);
    });

    it('signed with another secret', () => {
      expect(verifyResponse(encodeResponse(41, decoded, [], 'other'), request, 's3cr3t')).toBe(false);
    });

    it('wrong Message-Authenticator with a Response Authenticator recomputed to match', () => {
      const answer = ack();
      answer[answer.length - 1] ^= 1;
      responseAuthenticator(answer, decoded.authenticator, 's3cr3t').copy(answer, 4);
      expect(verifyResponse(answer, request, 's3cr3t')).toBe(false);
    });

    it('another Identifier', () => {
      const answer = encodeResponse(41, { ...decoded, identifier: 22 }, [], 's3cr3t');
      expect(verifyResponse(answer, request, 's3cr3t')).toBe(false);
    });

    it('a code that does not answer a Disconnect-Request (CoA-ACK)', () => {
      expect(verifyResponse(encodeResponse(44, decoded, [], 's3cr3t'), request, 's3cr3t')).toBe(false);
    });

    it('an answer to another request (another Request Authenticator)', () => {
      const other = decodePacket(encodeRequest(40, 21, [['User-Name', 'bob']], 's3cr3t')) as RadiusPacket;
      expect(verifyResponse(encodeResponse(41, other, [], 's3cr3t'), request, 's3cr3t')).toBe(false);
    });

    it('truncated or malformed', () => {
      expect(verifyResponse(ack().subarray(0, 19), request, 's3cr3t')).toBe(false);
      const answer = ack();
      answer[21] = 0; // an attribute of length 0
      expect(verifyResponse(answer, request, 's3cr3t')).toBe(false);
    });
  });

  it.each([
    ['User-Name', ''],
    ['User-Name', 'x'.repeat(254)],
    ['Session-Timeout', -1],
    ['Session-Timeout', 2 ** 32],
    ['Session-Timeout', 1.5],
    ['NAS-IP-Address', '2001:db8::1'],
    ['NAS-IP-Address', 'nas.example'],
  ] as const)('refuses %s = %j (RangeError)', (name, value) => {
    expect(() => encodeAttribute(name, value)).toThrow(RangeError);
  });

  it('decodes typed values', () => {
    const packet = decodePacket(Buffer.from(RADCLIENT_DISCONNECT, 'hex')) as RadiusPacket;
    expect(attributeValue(packet, 'User-Name')).toBe('alice');
    expect(attributeValue(packet, 'NAS-IP-Address')).toBe('192.0.2.10');
    expect(attributeValue(packet, 'Error-Cause')).toBeNull();
  });
});
