import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream, type Logger as Pino, type LevelWithSilent } from 'pino';
import type { LogLevel } from '../../config/configuration.js';

const PINO_LEVELS: Record<LogLevel, LevelWithSilent> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  info: 'info',
  debug: 'debug',
  verbose: 'trace',
};

export function createPino(level: LogLevel, destination?: DestinationStream): Pino {
  return pino(
    {
      level: PINO_LEVELS[level],
      base: { service: 'hotspot-user-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // A second line of defence: these never belong in a log line, whatever a caller passes.
      redact: {
        paths: ['authorization', 'password', 'token', '*.authorization', '*.password', '*.token', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * Nest's LoggerService on pino: every log line of the service is one JSON object. Nest passes the
 * context as the last argument, and for errors a stack before it.
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

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', message: unknown, params: unknown[]): void {
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields.context = context;
    if (level === 'error' || level === 'fatal') {
      const stack = rest.find((param) => typeof param === 'string');
      if (stack !== undefined) fields.stack = stack;
    }
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (message !== null && typeof message === 'object') {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
