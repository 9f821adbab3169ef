import { Readable } from 'node:stream';
import type { CliIo, CliRuntime, ServiceNeed } from '../cli/command.js';
import { main } from '../cli/program.js';

/** What a CLI command wrote, kept in memory instead of the process's stdout and stderr. */
export interface Captured {
  io: CliIo;
  stdout(): string;
  stderr(): string;
}

/** `stdin`: what the command reads from its standard input (none when not given). */
export function capture(stdin?: string): Captured {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text) },
      ...(stdin === undefined ? {} : { stdin: Readable.from([stdin]) }),
    },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `hotspot …argv` in this process, through the main() the executable calls. */
export async function runCli(runtime: CliRuntime, ...argv: string[]): Promise<CliRun> {
  return runCliWithInput(runtime, undefined, ...argv);
}

/** As runCli, with `stdin` as the command's standard input. */
export async function runCliWithInput(
  runtime: CliRuntime,
  stdin: string | undefined,
  ...argv: string[]
): Promise<CliRun> {
  const captured = capture(stdin);
  const code = await main(argv, captured.io, runtime);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** A runtime that hands out fakes instead of booting Nest, and counts how often a command asked for one. */
export class FakeRuntime implements CliRuntime {
  uses = 0;
  private readonly services = new Map<ServiceNeed<unknown>, unknown>();

  constructor(private readonly current: Date = new Date('2030-01-01T00:00:00.000Z')) {}

  provide<S>(need: ServiceNeed<S>, service: S): this {
    this.services.set(need, service);
    return this;
  }

  now(): Date {
    return new Date(this.current);
  }

  async use<S, R>(need: ServiceNeed<S>, work: (service: S) => Promise<R>): Promise<R> {
    this.uses += 1;
    if (!this.services.has(need)) throw new Error('no fake service for this command');
    return work(this.services.get(need) as S);
  }
}
