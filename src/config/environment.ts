import { existsSync } from 'node:fs';
import { ConfigValidationError, loadConfig, type AppConfig } from './configuration.js';

/**
 * The configuration of a process started from the command line (service, worker, CLI): `.env`
 * (when present) under the real environment. Throws ConfigValidationError naming bad variables.
 */
export function readEnvironmentConfig(): AppConfig {
  // Timestamps are stored and compared in UTC whatever the host's zone.
  process.env.TZ = 'UTC';
  if (existsSync('.env')) process.loadEnvFile('.env');
  return loadConfig(process.env);
}

/** readEnvironmentConfig for a long-running process: a bad value ends it with the message. */
export function readProcessConfig(): AppConfig {
  try {
    return readEnvironmentConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
