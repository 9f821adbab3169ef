import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import {
  ANSWER_CODES,
  attributeValue,
  decodePacket,
  encodeResponse,
  verifyRequest,
  type AttributeList,
  type RadiusPacket,
} from '../../src/radius-packets/radius-packet.js';

/** One datagram the simulator got, as it got it. */
export interface ReceivedRequest {
  raw: Buffer;
  packet: RadiusPacket | null;
  /** Whether it verified with the secret (Request Authenticator and Message-Authenticator). */
  verified: boolean;
  from: RemoteInfo;
  /** Convenience: the identification attributes. */
  userName: string | null;
  acctSessionId: string | null;
  nasIpAddress: string | null;
  sessionTimeout: number | null;
  /** Event-Timestamp (seconds since 1970), when sent. */
  eventTimestamp: number | null;
}

/** What to do with a verified request: ACK, NAK with an Error-Cause, or stay silent. */
export type NasAnswer = 'ack' | { nak: number } | 'silent';

/**
 * A NAS's RFC 5176 listener on a loopback address (127.0.0.1 unless given) for tests: verifies each request with the shared secret
 * (drops it silently when it does not verify, as a NAS does), records it, and answers as `answer`
 * says, with a correct Response Authenticator and Message-Authenticator. `send` lets a test answer
 * from somewhere else or with a broken packet.
 */
export class NasSimulator {
  readonly received: ReceivedRequest[] = [];
  answer: (request: ReceivedRequest) => NasAnswer = () => 'ack';

  private constructor(
    private readonly socket: Socket,
    readonly secret: string,
  ) {}

  /** `address` within 127.0.0.0/8, so that NASes registered at once each have an address of their own. */
  static async start(secret: string, address = '127.0.0.1'): Promise<NasSimulator> {
    const socket = createSocket('udp4');
    const simulator = new NasSimulator(socket, secret);
    socket.on('message', (raw, from) => simulator.handle(raw, from));
    await new Promise<void>((resolve) => socket.bind(0, address, resolve));
    return simulator;
  }

  get address(): string {
    return this.socket.address().address;
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** The requests that verified. */
  get verified(): ReceivedRequest[] {
    return this.received.filter((request) => request.verified);
  }

  /** An answer to `request`, encoded with `secret` (the NAS's own unless given). */
  static response(request: RadiusPacket, answer: Exclude<NasAnswer, 'silent'>, secret: string): Buffer {
    const [ack, nak] = ANSWER_CODES[request.code];
    const attributes: AttributeList = answer === 'ack' ? [] : [['Error-Cause', answer.nak]];
    return encodeResponse(answer === 'ack' ? ack : nak, request, attributes, secret);
  }

  /** Sends `data` from the NAS's own address and port (a forged or broken answer, in tests). */
  sendRaw(data: Buffer, port: number): void {
    this.socket.send(data, port, '127.0.0.1');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private handle(raw: Buffer, from: RemoteInfo): void {
    const packet = decodePacket(raw);
    const verified = packet !== null && ANSWER_CODES[packet.code] !== undefined && verifyRequest(raw, this.secret);
    const text = (name: 'User-Name' | 'Acct-Session-Id' | 'NAS-IP-Address') =>
      packet === null ? null : ((attributeValue(packet, name) as string | null) ?? null);
    const request: ReceivedRequest = {
      raw: Buffer.from(raw),
      packet,
      verified,
      from,
      userName: text('User-Name'),
      acctSessionId: text('Acct-Session-Id'),
      nasIpAddress: text('NAS-IP-Address'),
      sessionTimeout: packet === null ? null : ((attributeValue(packet, 'Session-Timeout') as number | null) ?? null),
      eventTimestamp: packet === null ? null : ((attributeValue(packet, 'Event-Timestamp') as number | null) ?? null),
    };
    this.received.push(request);
    if (!verified || packet === null) return;
    const answer = this.answer(request);
    if (answer === 'silent') return;
    this.socket.send(NasSimulator.response(packet, answer, this.secret), from.port, from.address);
  }
}
