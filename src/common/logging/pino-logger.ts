import type { LoggerService } from '@nestjs/common';
import { isatty } from 'node:tty';
import { pino, type DestinationStream, type Logger as Pino, type LevelWithSilent, type LoggerOptions } from 'pino';
import pinoPretty from 'pino-pretty';
import type { LogFormat, LogLevel } from '../../config/configuration.js';

const PINO_LEVELS: Record<LogLevel, LevelWithSilent> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  info: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Nest's own start-up lines ("AppModule dependencies initialized", "Mapped {/api/v1, GET} route"…):
 * details of the framework, logged at debug so that a start shows the service's own lines.
 */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
  'NestApplicationContext',
]);

export interface LogOutput {
  /** LOG_FORMAT; null picks pretty when the output is a terminal, JSON otherwise. */
  format?: LogFormat | null;
  /** A stream of JSON lines to write to instead of the file descriptor (tests read the log this way). */
  destination?: DestinationStream;
  /** 1 (stdout, the service's) or 2 (stderr, the command line's). */
  fd?: 1 | 2;
}

/** The format actually used: JSON into a given destination or a file/pipe, pretty on a terminal, unless chosen. */
export function resolveLogFormat(output: LogOutput): LogFormat {
  if (output.format) return output.format;
  return output.destination === undefined && isatty(output.fd ?? 1) ? 'pretty' : 'json';
}

/** Human-readable lines into `out` (synchronous, so that the last line before an exit is not lost). */
function prettyDestination(out: DestinationStream, colorize: boolean): DestinationStream {
  const prettify = pinoPretty.prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
  return { write: (line: string) => out.write(prettify(line)) };
}

export function createPino(level: LogLevel, output: LogOutput = {}): Pino {
  const options: LoggerOptions = {
    level: PINO_LEVELS[level],
    base: { service: 'hotspot-user-service' },
    // A second line of defence: these never belong in a log line, whatever a caller passes.
    redact: {
      paths: [
        'authorization',
        'password',
        'token',
        '*.authorization',
        '*.password',
        '*.token',
        'headers.authorization',
      ],
      censor: '[redacted]',
    },
  };
  const fd = output.fd ?? 1;
  const out = output.destination ?? pino.destination({ fd, sync: true });
  if (resolveLogFormat(output) === 'pretty') {
    return pino(options, prettyDestination(out, output.destination === undefined && isatty(fd)));
  }
  return pino(
    {
      ...options,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    out,
  );
}

/**
 * Nest's LoggerService on pino: every log line of the service is one object whose text is `msg`.
 * Nest passes the context as the last argument, and for errors a stack before it.
 */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(
    level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace',
    message: unknown,
    params: unknown[],
  ): void {
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields.context = context;
    if (level === 'info' && context !== undefined && FRAMEWORK_CONTEXTS.has(context)) level = 'debug';
    if (level === 'error' || level === 'fatal') {
      const stack = rest.find((param) => typeof param === 'string');
      if (stack !== undefined) fields.stack = stack;
    }
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (message !== null && typeof message === 'object') {
      // One key for the text in every line: an object's `message` becomes `msg`.
      const { message: text, msg, ...others } = message as Record<string, unknown>;
      const line = msg ?? text;
      if (line === undefined) this.logger[level]({ ...fields, ...others });
      else this.logger[level]({ ...fields, ...others }, String(line));
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
