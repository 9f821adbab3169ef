import { CommandFailure, type CliRuntime } from './command.js';
import { FakeRuntime, runCli } from '../testing/cli.js';
import { JOBS_SERVICE } from './commands/jobs.js';
import { TOKEN_SERVICE, type TokenService } from './commands/token.js';

describe('hotspot (the program)', () => {
  let runtime: FakeRuntime;

  beforeEach(() => {
    runtime = new FakeRuntime();
  });

  it('--help prints the generated help on stdout with exit 0, listing every command', async () => {
    const result = await runCli(runtime, '--help');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Usage: hotspot [options] [command]');
    for (const command of ['token', 'session', 'jobs'])
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
    expect(result.stdout).toContain('Exit codes: 0 done, 1 the operation failed');
    expect(runtime.uses).toBe(0);
  });

  it.each([
    [
      ['token', '--help'],
      ['create', 'list', 'revoke'],
    ],
    [
      ['help', 'token'],
      ['create', 'list', 'revoke'],
    ],
    [
      ['token', 'help'],
      ['create', 'list', 'revoke'],
    ],
    [
      ['session', '--help'],
      ['start', 'stop'],
    ],
    [['jobs', '--help'], ['list']],
  ])('%j lists the subcommands %j', async (argv, subcommands) => {
    const result = await runCli(runtime, ...argv);
    expect(result.code).toBe(0);
    for (const name of subcommands) expect(result.stdout).toMatch(new RegExp(`^  ${name}\\s`, 'm'));
  });

  it('the token help shows how create is called', async () => {
    expect((await runCli(runtime, 'token', 'help')).stdout).toContain('create --name NAME --permissions');
  });

  it('without a command, prints the help on stderr and exits 2', async () => {
    const result = await runCli(runtime);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: hotspot');
  });

  it("an unknown command or option exits 2 with commander's message and a hint on stderr", async () => {
    expect(await runCli(runtime, 'frobnicate')).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown command 'frobnicate'\n(add --help for usage)\n",
    });
    const option = await runCli(runtime, '--verbose');
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--verbose'");
  });

  it('a failed operation exits 1 with its message alone on stderr', async () => {
    const failing: Pick<TokenService, 'list'> = {
      list: () => Promise.reject(new CommandFailure('Could not start: connect ECONNREFUSED 127.0.0.1:3306')),
    };
    runtime.provide(TOKEN_SERVICE, failing as TokenService);
    expect(await runCli(runtime, 'token', 'list')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Could not start: connect ECONNREFUSED 127.0.0.1:3306\n',
    });
  });

  it('an unexpected error exits 1 with "Failed:" and its message, without a stack', async () => {
    runtime.provide(JOBS_SERVICE, {
      list: () => Promise.reject(new Error('disk I/O error')),
      find: () => Promise.resolve(null),
    });
    const result = await runCli(runtime, 'jobs', 'list');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'Failed: disk I/O error\n' });
  });

  it('a runtime that cannot start (bad configuration) makes the command exit 1', async () => {
    const broken: CliRuntime = {
      now: () => new Date(),
      use: () => Promise.reject(new CommandFailure('Invalid configuration:\n  DATABASE_URL: must start with sqlite:')),
    };
    const result = await runCli(broken, 'token', 'list');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('DATABASE_URL');
  });
});
