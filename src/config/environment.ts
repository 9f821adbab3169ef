import { existsSync } from 'node:fs';
import { ConfigValidationError, loadConfig, type AppConfig } from './configuration.js';
import { readOrCreateKeyFile } from './secrets-key-file.js';

/**
 * The configuration of a process started from the command line (service, worker, CLI): `.env`
 * (when present) under the real environment. Throws ConfigValidationError naming bad variables.
 */
export function readEnvironmentConfig(): AppConfig {
  // Timestamps are stored and compared in UTC whatever the host's zone.
  process.env.TZ = 'UTC';
  if (existsSync('.env')) process.loadEnvFile('.env');
  return withKeyFromFile(loadConfig(process.env));
}

/** The configuration with the key of its key file (made on first use), when SECRETS_KEY is not set. */
export function withKeyFromFile(config: AppConfig): AppConfig {
  if (config.secretsKey !== null || config.secretsKeyFile === null) return config;
  try {
    return { ...config, secretsKey: readOrCreateKeyFile(config.secretsKeyFile) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigValidationError([{ variable: 'SECRETS_KEY_FILE', message }]);
  }
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
