import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { createApp } from './app.setup.js';
import { ConfigValidationError, loadConfig, type AppConfig } from './config/configuration.js';

// Timestamps are stored and compared in UTC whatever the host's zone.
process.env.TZ = 'UTC';

function readConfig(): AppConfig {
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

async function main(): Promise<void> {
  const config = readConfig();
  const app = await createApp(config);
  app.enableShutdownHooks();
  await app.listen(config.port, config.host);
  const shownHost = config.host === '0.0.0.0' ? 'localhost' : config.host;
  new Logger('Main').log(
    `Hotspot API listening on http://${shownHost}:${config.port}/api/v1 (docs: /api/docs, database: ${config.database.type})`,
  );
}

main().catch((error: unknown) => {
  new Logger('Main').fatal(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
