import type { LogLevel as NestLogLevel } from '@nestjs/common';
import type { LogLevel } from '../config/configuration.js';

/** The Nest log levels a configured LOG_LEVEL lets through. */
export const NEST_LOG_LEVELS: Record<LogLevel, NestLogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  verbose: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};
