import { DataSource } from 'typeorm';
import { loadConfig } from '../config/configuration.js';
import { buildDataSourceOptions } from './data-source-options.js';

/** Entry point for the TypeORM CLI (`npm run typeorm -- …`), configured from the same environment as the app. */
const config = loadConfig(process.env);
export default new DataSource(buildDataSourceOptions(config.database, { poolSize: config.databasePoolSize }));
