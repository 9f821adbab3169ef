import { DataSource } from 'typeorm';
import { readEnvironmentConfig } from '../config/environment.js';
import { buildDataSourceOptions } from './data-source-options.js';

/**
 * Entry point for the TypeORM CLI (`npm run migration:run`, `npm run typeorm -- …`), configured as the
 * service is: the environment, then `.env`, with timestamps in UTC.
 */
const config = readEnvironmentConfig();
export default new DataSource(
  buildDataSourceOptions(config.database, {
    poolSize: config.databasePoolSize,
    timeoutMs: config.databaseTimeoutMs,
  }),
);
