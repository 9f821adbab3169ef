import type { DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import type { AppConfig } from './configuration.js';

/**
 * ConfigService over an AppConfig that configSchema already produced (main.ts, the worker, the CLIs and
 * the tests each read their environment their own way, and the worker and CLIs adjust the result), never
 * over process.env directly. forRoot's `validate` and `validationSchema` are not used: they check
 * process.env and .env, not the environment a test or command passed, and copy the result's plain
 * values into process.env (the bootstrap token among them).
 */
export function appConfigModule(config: AppConfig): Promise<DynamicModule> {
  return ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, skipProcessEnv: true, load: [() => config] });
}
