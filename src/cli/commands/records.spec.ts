import { RecordsRefusal } from '../../access-records/access-records.service.js';
import { SigningKeyError } from '../../access-records/signing-key.js';
import { FakeRuntime, runCli } from '../../testing/cli.js';
import { RECORDS_SERVICE, type RecordsKeeper } from './records.js';

class FakeRecords implements RecordsKeeper {
  exports: Array<Parameters<RecordsKeeper['export']>[0]> = [];
  refusal: Error | null = null;

  export(options: Parameters<RecordsKeeper['export']>[0]) {
    this.exports.push(options);
    if (this.refusal) return Promise.reject(this.refusal);
    return Promise.resolve([
      { venue: 'lobby', day: '2026-11-25', file: `${options.folder}/lobby.2026-11-25.jsonl`, records: 2, sha256: 'ab' },
    ]);
  }
  verify() {
    return Promise.resolve({
      ok: false,
      files: [
        { name: 'lobby.2026-11-25.jsonl', venue: 'lobby', day: '2026-11-25', records: 2, sha256: 'ab', problems: [] },
      ],
      chain: ['lobby: 2026-11-27 follows 2026-11-26, whose file is missing (the folder goes from 2026-11-25)'],
    });
  }
  publicKey() {
    if (this.refusal) throw this.refusal;
    return { pem: '-----BEGIN PUBLIC KEY-----\nAA==\n-----END PUBLIC KEY-----\n', sha256: 'cd' };
  }
}

describe('hotspot records', () => {
  let records: FakeRecords;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'records', ...argv);

  beforeEach(() => {
    records = new FakeRecords();
    runtime = new FakeRuntime().provide(RECORDS_SERVICE, records);
  });

  it('export hands the days, the venue and the folder to the service and prints each file', async () => {
    const result = await run(
      'export',
      '--from',
      '2026-11-01',
      '--day',
      '2026-11-25',
      '--venue',
      'lobby',
      '--out',
      '/srv/r',
    );
    expect(result).toEqual({ code: 0, stdout: '/srv/r/lobby.2026-11-25.jsonl\t2 record(s)\tsha256 ab\n', stderr: '' });
    expect(records.exports).toEqual([{ folder: '/srv/r', venueId: 'lobby', first: '2026-11-01', last: '2026-11-25' }]);
  });

  it.each([
    [['export'], /required option '--out <folder>' not specified/],
    [['export', '--out', '/srv/r', '--day', '2026-02-30'], /option '--day' must be a date, YYYY-MM-DD/],
    [['export', '--out', '/srv/r', '--from', '2026-11-01'], /option '--from' needs --day/],
    [['export', '--out', '/srv/r', '--from', '2026-11-26', '--day', '2026-11-25'], /must not come after --day/],
    [['export', '--out', '/srv/r', '--venue', 'a b'], /must be a venue id/],
    [['verify'], /missing required argument 'folder'/],
  ])('refuses bad usage %j with exit code 2, doing nothing', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(records.exports).toEqual([]);
  });

  it('says why an export or the key failed, with exit code 1 and no stack', async () => {
    records.refusal = new RecordsRefusal('2026-11-28 at venue lobby cannot be sealed yet');
    expect(await run('export', '--out', '/srv/r')).toEqual({
      code: 1,
      stdout: '',
      stderr: '2026-11-28 at venue lobby cannot be sealed yet\n',
    });
    records.refusal = new SigningKeyError('RECORDS_SIGNING_KEY_FILE is not set');
    expect(await run('public-key')).toMatchObject({ code: 1, stderr: 'RECORDS_SIGNING_KEY_FILE is not set\n' });
  });

  it('verify prints a line per file and per break of a chain, and fails when anything failed', async () => {
    expect(await run('verify', '/srv/r')).toEqual({
      code: 1,
      stdout:
        'ok\tlobby.2026-11-25.jsonl\t2 record(s)\n' +
        'FAILED\tchain\tlobby: 2026-11-27 follows 2026-11-26, whose file is missing (the folder goes from 2026-11-25)\n',
      stderr: 'Verification failed: see the lines marked FAILED.\n',
    });
  });

  it('public-key prints the PEM alone on stdout, its SHA-256 on stderr; --json both in one object', async () => {
    expect(await run('public-key')).toEqual({
      code: 0,
      stdout: '-----BEGIN PUBLIC KEY-----\nAA==\n-----END PUBLIC KEY-----\n',
      stderr: 'SHA-256 of the public key (DER): cd\n',
    });
    expect(await run('public-key', '--json')).toEqual({
      code: 0,
      stdout: '{"pem":"-----BEGIN PUBLIC KEY-----\\nAA==\\n-----END PUBLIC KEY-----\\n","sha256":"cd"}\n',
      stderr: '',
    });
  });
});
