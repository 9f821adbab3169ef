import { existsSync } from 'node:fs';
import { ConfigValidationError, loadConfig, type AppConfig } from './configuration.js';

/**
 * The configuration of a process started from the command line: `.env` (when present) under the
 * real environment. A bad value ends the process with a message naming the variable.
 */
export function readProcessConfig(): AppConfig {
  // Timestamps are stored and compared in UTC whatever the host's zone.
  process.env.TZ = 'UTC';
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
