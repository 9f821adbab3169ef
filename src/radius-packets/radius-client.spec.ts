import { createSocket } from 'node:dgram';
import { NasSimulator } from '../../test/support/nas-simulator.js';
import { exchange } from './radius-client.js';
import { decodePacket, encodeRequest, RADIUS_CODES, type RadiusPacket } from './radius-packet.js';

const SECRET = 'unit-nas-secret';

const request = () =>
  encodeRequest(
    RADIUS_CODES.disconnectRequest,
    7,
    [
      ['User-Name', 'alice'],
      ['Acct-Session-Id', 'A1'],
    ],
    SECRET,
  );

/** A datagram sent to `port` from a socket of its own (another source port than the NAS's). */
async function sendFromElsewhere(data: Buffer, port: number): Promise<void> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.send(data, port, '127.0.0.1', () => resolve()));
  socket.close();
}

describe('exchange (UDP against a NAS simulator on 127.0.0.1)', () => {
  let nas: NasSimulator;
  beforeEach(async () => {
    nas = await NasSimulator.start(SECRET);
  });
  afterEach(() => nas.close());

  const options = (extra: Partial<Parameters<typeof exchange>[0]> = {}) => ({
    host: '127.0.0.1',
    port: nas.port,
    secret: SECRET,
    request: request(),
    timeoutMs: 100,
    retries: 2,
    ...extra,
  });

  it('returns the verified ACK', async () => {
    const result = await exchange(options());
    expect(result.response?.code).toBe(RADIUS_CODES.disconnectAck);
    expect(result.transmissions).toBe(1);
    expect(nas.verified).toHaveLength(1);
  });

  it('retransmits byte-identically from the same source port, with doubling waits, then gives up', async () => {
    nas.answer = () => 'silent';
    const sent = request();
    const result = await exchange(options({ request: sent, timeoutMs: 50, retries: 2 }));
    expect(result).toEqual({ response: null, transmissions: 3, discarded: 0 });
    expect(nas.received).toHaveLength(3);
    for (const received of nas.received) expect(received.raw).toEqual(sent);
    expect(new Set(nas.received.map((received) => received.from.port)).size).toBe(1);
  });

  it('takes the answer to a retransmission', async () => {
    nas.answer = () => (nas.received.length < 2 ? 'silent' : { nak: 503 });
    const result = await exchange(options({ timeoutMs: 50 }));
    expect(result.response?.code).toBe(RADIUS_CODES.disconnectNak);
    expect(result.transmissions).toBe(2);
  });

  it('ignores an answer with a wrong authenticator and one from another port, then takes the real one', async () => {
    nas.answer = (received) => {
      const packet = received.packet as RadiusPacket;
      const forged = NasSimulator.response(packet, 'ack', 'not-the-secret');
      const fromElsewhere = NasSimulator.response(packet, 'ack', SECRET);
      void (async () => {
        await sendFromElsewhere(fromElsewhere, received.from.port);
        const wrongAuthenticator = NasSimulator.response(packet, { nak: 404 }, SECRET);
        wrongAuthenticator[5] ^= 1;
        await sendFromElsewhere(forged, received.from.port);
        nas.sendRaw(wrongAuthenticator, received.from.port);
        await new Promise((resolve) => setTimeout(resolve, 30));
        nas.sendRaw(NasSimulator.response(packet, { nak: 503 }, SECRET), received.from.port);
      })();
      return 'silent';
    };
    const result = await exchange(options({ timeoutMs: 2000, retries: 0 }));
    expect(result.response?.code).toBe(RADIUS_CODES.disconnectNak);
    expect(result.discarded).toBe(3);
  });

  it('an answer from a wrong source alone is no answer', async () => {
    nas.answer = (received) => {
      void sendFromElsewhere(NasSimulator.response(received.packet as RadiusPacket, 'ack', SECRET), received.from.port);
      return 'silent';
    };
    const result = await exchange(options({ timeoutMs: 100, retries: 0 }));
    expect(result.response).toBeNull();
    expect(result.discarded).toBe(1);
  });

  it('the NAS drops a request signed with another secret', async () => {
    const result = await exchange(
      options({ request: encodeRequest(40, 1, [['User-Name', 'a']], 'wrong'), timeoutMs: 50, retries: 0 }),
    );
    expect(result.response).toBeNull();
    expect(nas.received[0].verified).toBe(false);
  });

  it('rejects with the abort when aborted', async () => {
    nas.answer = () => 'silent';
    const controller = new AbortController();
    const pending = exchange(options({ timeoutMs: 5000, signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(decodePacket(nas.received[0].raw)?.identifier).toBe(7);
  });
});
