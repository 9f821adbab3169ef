import type { INestApplicationContext, ModuleMetadata, Provider } from '@nestjs/common';
import type { Command } from 'commander';

/**
 * What the program and its subcommands share. The command-line contract: a command's result goes to
 * stdout and every log line to stderr, so `VALUE=$(hotspot token create …)` captures the result alone.
 */

export const EXIT_OK = 0;
/** The operation failed: not found, refused, database error. */
export const EXIT_FAILURE = 1;
/** Bad usage: unknown command or option, missing argument, bad value. Nothing was done. */
export const EXIT_USAGE = 2;

/** Where a command writes; process.stdout/process.stderr in production, buffers in tests. */
export interface CliOutput {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  /** What a command reads a secret from (`--password-stdin`); absent: nothing to read. */
  stdin?: AsyncIterable<string | Uint8Array>;
}

/** A command-line mistake found after commander's own checks: the message goes to stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The operation could not be done (unknown id, refused request): the message goes to stderr, exit code 1. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

/** The service a subcommand calls, and the Nest modules or providers that build it. */
export interface ServiceNeed<S> {
  /** Besides configuration, common services and the database, which every command gets. */
  imports?: ModuleMetadata['imports'];
  providers?: Provider[];
  resolve(context: Pick<INestApplicationContext, 'get'>): S;
}

/** Builds the services a command needs: a Nest application context in production, fakes in unit tests. */
export interface CliRuntime {
  /** The current time, for option values that must lie in the future. */
  now(): Date;
  /** Builds what `need` asks for, runs `work` with its service, then shuts everything down. */
  use<S, R>(need: ServiceNeed<S>, work: (service: S) => Promise<R>): Promise<R>;
}

export interface CommandContext {
  io: CliIo;
  runtime: CliRuntime;
}

/** A subcommand of `hotspot`: one file in src/cli/commands, listed in COMMANDS (program.ts). */
export interface CliCommand {
  register(program: Command, context: CommandContext): void;
}

/** One JSON document on one line of stdout. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}
