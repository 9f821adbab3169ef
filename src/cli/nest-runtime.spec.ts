import { jest } from '@jest/globals';
import { loadConfig } from '../config/configuration.js';
import { CommandFailure } from './command.js';
import { nestRuntime, routeConsoleToStderr } from './nest-runtime.js';

describe('routeConsoleToStderr', () => {
  it('sends console.log and console.info to stderr until restored', () => {
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const restore = routeConsoleToStderr();
    let stdoutCalls: unknown[][];
    let stderrCalls: unknown[][];
    try {
      console.log('query: %s', 'SELECT 1');
      console.info('migration done');
    } finally {
      restore();
      stdoutCalls = [...stdout.mock.calls];
      stderrCalls = [...stderr.mock.calls];
      stdout.mockRestore();
      stderr.mockRestore();
    }
    expect(stdoutCalls).toEqual([]);
    expect(stderrCalls).toEqual([['query: SELECT 1\n'], ['migration done\n']]);
  });
});

describe('nestRuntime', () => {
  it('turns a bad configuration into a failure naming the variable, before building anything', async () => {
    const runtime = nestRuntime(() => loadConfig({ DATABASE_URL: 'postgres://db/hotspot' }));
    const work = jest.fn(() => Promise.resolve('ran'));
    const failure = runtime.use({ resolve: () => undefined }, work);
    await expect(failure).rejects.toThrow(CommandFailure);
    await expect(failure).rejects.toThrow('DATABASE_URL');
    expect(work).not.toHaveBeenCalled();
  });
});
