import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogDriver } from './log.driver.js';

describe('the log gateway', () => {
  const message = { id: 'm1', to: '+905551234567', text: '123456 is your code', reportUrl: null };
  let lines: string[];
  let spy: jest.SpiedFunction<Logger['log']>;

  beforeEach(() => {
    lines = [];
    spy = jest.spyOn(Logger.prototype, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  });
  afterEach(() => spy.mockRestore());

  it('logs that a message was written, never its text or the whole number', async () => {
    expect(await new LogDriver(null).send(message)).toEqual({ verdict: 'accepted', providerId: null });
    expect(lines).toEqual(['SMS m1 to +905…67, 19 characters (log gateway: not sent)']);
  });

  it('appends the message, text included, to the development outbox file, owner-only', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sms-outbox-'));
    try {
      const file = join(folder, 'outbox.jsonl');
      const driver = new LogDriver(file);
      await driver.send(message);
      await driver.send({ ...message, id: 'm2' });
      const written = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, string>);
      expect(written.map(({ id, to, text }) => ({ id, to, text }))).toEqual([
        { id: 'm1', to: '+905551234567', text: '123456 is your code' },
        { id: 'm2', to: '+905551234567', text: '123456 is your code' },
      ]);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(lines.every((line) => !line.includes('123456'))).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
