import type { CliIo } from '../../src/cli/cli-context.js';

/** What a CLI command wrote, kept in memory instead of the process's stdout and stderr. */
export interface Captured {
  io: CliIo;
  stdout(): string;
  stderr(): string;
}

export function capture(): Captured {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) } },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}
