import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_TEXT } from '../src/cli/commands/sms.js';
import { nestRuntime } from '../src/cli/nest-runtime.js';
import { loadConfig } from '../src/config/configuration.js';
import { SmsMessageEntity } from '../src/sms/entities/sms-message.entity.js';
import { SmsSender } from '../src/sms/sms-sender.service.js';
import { SmsService } from '../src/sms/sms.service.js';
import { runCli } from '../src/testing/cli.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The SMS outbox against a real HTTP provider (a local server whose answers each test sets): retries
 * with backoff up to the cap, refusals, messages past their time, claims that never send a message
 * twice, the text erased once settled, and a provider's delivery report posted as a form.
 */
for (const kind of databaseKinds()) {
  describe(`the SMS outbox [${kind}]`, () => {
    let testApp: TestApp;
    let provider: Server;
    const clock = new ManualClock(new Date());
    /** What the provider answers next, by the message's id (default: 201 with a sid). */
    let answers: Array<{ status: number; body: string }> = [];
    const received: Array<{ id: string; to: string; text: string; report: string }> = [];

    beforeAll(async () => {
      provider = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          received.push({
            id: req.headers['idempotency-key'] as string,
            to: form.get('To') ?? '',
            text: form.get('Body') ?? '',
            report: form.get('StatusCallback') ?? '',
          });
          const answer = answers.shift() ?? { status: 201, body: '{"sid": "SM42"}' };
          res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body);
        });
      });
      await new Promise<void>((done) => provider.listen(0, '127.0.0.1', done));
      const port = (provider.address() as AddressInfo).port;
      testApp = await startTestApp(
        kind,
        {
          SECRETS_KEY: 'e'.repeat(64),
          SMS_GATEWAY: 'http',
          SMS_GATEWAY_URL: `http://127.0.0.1:${port}/Messages.json`,
          SMS_HTTP_HEADERS: '{"Idempotency-Key": "{{id}}"}',
          SMS_HTTP_BODY: 'To={{to}}&Body={{text}}&StatusCallback={{reportUrl}}',
          SMS_HTTP_ACCEPT_PATTERN: '"sid": "(\\w+)"',
          SMS_REPORT_BASE_URL: 'https://hotspot.example',
          SMS_MAX_ATTEMPTS: '3',
          SMS_RETRY_BASE_MS: '1000',
        },
        { clock },
      );
    }, 60_000);
    afterAll(async () => {
      await testApp?.close();
      await new Promise<void>((done) => provider?.close(() => done()));
    });

    const rows = () => testApp.dataSource.getRepository(SmsMessageEntity);
    const send = () => testApp.app.get(SmsSender).processBatch();

    async function enqueue(recipient: string, text: string): Promise<string> {
      return testApp.database.transaction((em) =>
        testApp.app.get(SmsService).enqueue(em, {
          recipient,
          text,
          sendBefore: new Date(clock.now().getTime() + 600_000),
          now: clock.now(),
        }),
      );
    }

    it('retries a 5xx with backoff and sends on a later attempt; the text is erased once sent', async () => {
      answers = [
        { status: 503, body: 'busy' },
        { status: 502, body: 'down' },
      ];
      const id = await enqueue('+905550000001', 'Code 111111');
      expect(await send()).toBe(1);
      let row = await rows().findOneByOrFail({ id });
      expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'provider answered 503: busy' });
      expect(row.sealedContent).not.toContain('111111');
      // Not due before its backoff (0.5 to 1 s after the first attempt).
      expect(await send()).toBe(0);
      clock.advance(1000);
      expect(await send()).toBe(1);
      clock.advance(2000);
      expect(await send()).toBe(1);
      row = await rows().findOneByOrFail({ id });
      expect(row).toMatchObject({
        status: 'sent',
        attempts: 3,
        sealedContent: null,
        providerMessageId: 'SM42',
        lastError: null,
      });
      expect(received.filter((r) => r.id === id)).toHaveLength(3);
      expect(received.at(-1)).toMatchObject({ to: '+905550000001', text: 'Code 111111' });
      expect(received.at(-1)?.report).toMatch(/^https:\/\/hotspot\.example\/sms\/reports\/[\w-]{32}$/);
    });

    it('fails after the last attempt, and at once on a 4xx; the text erased either way', async () => {
      answers = [
        { status: 503, body: 'busy' },
        { status: 503, body: 'busy' },
        { status: 503, body: 'still busy with 555000000' },
      ];
      const id = await enqueue('+905550000002', 'Code 222222');
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect(await send()).toBe(1);
        clock.advance(10_000);
      }
      expect(await rows().findOneByOrFail({ id })).toMatchObject({
        status: 'failed',
        attempts: 3,
        sealedContent: null,
        lastError: 'provider answered 503: still busy with #',
      });
      answers = [{ status: 401, body: 'bad credentials' }];
      const refused = await enqueue('+905550000003', 'Code 333333');
      expect(await send()).toBe(1);
      expect(await rows().findOneByOrFail({ id: refused })).toMatchObject({
        status: 'failed',
        attempts: 1,
        sealedContent: null,
      });
      expect(await send()).toBe(0);
    });

    it('gives up a message past its time unsent', async () => {
      const id = await enqueue('+905550000004', 'Code 444444');
      const before = received.length;
      clock.advance(601_000);
      expect(await send()).toBe(1);
      expect(received).toHaveLength(before);
      expect(await rows().findOneByOrFail({ id })).toMatchObject({ status: 'failed', sealedContent: null });
    });

    it('never hands one message to two claims at once', async () => {
      const ids = await Promise.all(Array.from({ length: 12 }, (_, n) => enqueue(`+9055510000${10 + n}`, `Code ${n}`)));
      const before = received.length;
      // Three senders at once, round after round (one may lock rows it does not take: they wait a round).
      let claimed = 0;
      for (let round = 0; round < 5 && claimed < 12; round += 1) {
        claimed += (await Promise.all([send(), send(), send()])).reduce((a, b) => a + b, 0);
      }
      expect(claimed).toBe(12);
      const sentIds = received.slice(before).map((r) => r.id);
      expect(sentIds.sort()).toEqual([...ids].sort());
    });

    it('deletes settled messages after 30 days, never one still to send', async () => {
      const waiting = await enqueue('+905550000006', 'Code 666666');
      clock.advance(31 * 86_400_000);
      const swept = await testApp.app.get(SmsService).sweep(clock.now());
      expect(swept).toBeGreaterThan(10);
      expect(await rows().find({ select: { id: true, status: true } })).toEqual([{ id: waiting, status: 'pending' }]);
    });

    it("records a provider's delivery report posted as a form, and keeps a final state", async () => {
      const id = await enqueue('+905550000005', 'Code 555555');
      await send();
      const report = received.find((r) => r.id === id)!.report.replace('https://hotspot.example', '');
      const post = (status: string) =>
        testApp.http.post(report).type('form').send({ MessageStatus: status, MessageSid: 'SM42' });
      expect((await post('sent')).status).toBe(200);
      expect((await rows().findOneByOrFail({ id })).delivery).toBe('smsc');
      expect((await post('delivered')).body).toEqual({ success: true, message: 'Recorded' });
      expect((await post('failed')).body).toEqual({ success: true, message: 'Already known' });
      expect(await rows().findOneByOrFail({ id })).toMatchObject({ delivery: 'delivered' });
      expect((await testApp.http.get(`${report}?status=bogus`)).status).toBe(400);
    });
  });
}

describe('hotspot sms test', () => {
  it('sends one test message through the configured gateway and says how it answered', async () => {
    const seen: string[] = [];
    let status = 201;
    const provider = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push(body);
        res.writeHead(status).end(status === 201 ? '{"sid": "SM7"}' : 'bad key');
      });
    });
    await new Promise<void>((done) => provider.listen(0, '127.0.0.1', done));
    const folder = mkdtempSync(join(tmpdir(), 'hotspot-sms-cli-'));
    try {
      const runtime = nestRuntime(() =>
        loadConfig({
          DATABASE_URL: `sqlite:${join(folder, 'hotspot.sqlite')}`,
          LOG_LEVEL: 'error',
          SMS_GATEWAY: 'http',
          SMS_GATEWAY_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/send`,
          SMS_HTTP_BODY: 'to={{to}}&text={{text}}',
        }),
      );
      const sent = await runCli(runtime, 'sms', 'test', '--to', '+90 555 000 00 99');
      expect(sent).toEqual({ code: 0, stdout: 'Accepted by the http gateway for +905550000099.\n', stderr: '' });
      expect(Object.fromEntries(new URLSearchParams(seen[0]))).toEqual({ to: '+905550000099', text: TEST_TEXT });
      status = 401;
      const refused = await runCli(runtime, 'sms', 'test', '--to', '+905550000099');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('The http gateway did not accept it: provider answered 401: bad key');
      const usage = await runCli(runtime, 'sms', 'test', '--to', '0555 000 00 99');
      expect(usage.code).toBe(2);
      expect(seen).toHaveLength(2);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await new Promise<void>((done) => provider.close(() => done()));
    }
  }, 30_000);
});
