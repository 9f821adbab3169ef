import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { NasSecretsCheck } from './nas-secrets-check.js';
import type { NasService, SecretStorageReport } from './nas.service.js';

function check(report: SecretStorageReport, encryptsSecrets: boolean) {
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  const nas = { secretStorageReport: async () => report, encryptsSecrets } as unknown as NasService;
  return { run: () => new NasSecretsCheck(nas).onApplicationBootstrap(), warn, error };
}

describe('NasSecretsCheck at start-up', () => {
  afterEach(() => jest.restoreAllMocks());

  it('warns when NAS secrets are stored in clear and SECRETS_KEY is unset', async () => {
    const { run, warn, error } = check({ total: 2, plain: 2, unreadable: [] }, false);
    await run();
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('2 NAS secret(s) are stored in clear in the database: set SECRETS_KEY'),
    );
    expect(error).not.toHaveBeenCalled();
  });

  it('says nothing without NASes, or when every secret is encrypted and readable', async () => {
    for (const report of [
      { total: 0, plain: 0, unreadable: [] },
      { total: 3, plain: 0, unreadable: [] },
    ]) {
      const { run, warn, error } = check(report, true);
      await run();
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
      jest.restoreAllMocks();
    }
  });

  it('logs an error naming the NASes whose secrets the configured key cannot read', async () => {
    const { run, error } = check({ total: 2, plain: 0, unreadable: ['lobby-ap', 'bar-ap'] }, true);
    await run();
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/cannot be read with the configured SECRETS_KEY.*lobby-ap, bar-ap/),
    );
  });
});
