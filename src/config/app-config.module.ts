import type { DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import type { AppConfig } from './configuration.js';

/**
 * ConfigService over an already loaded and validated AppConfig (main.ts, the worker, the CLIs and
 * the tests each load it their own way), never over process.env directly.
 */
export function appConfigModule(config: AppConfig): Promise<DynamicModule> {
  return ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, skipProcessEnv: true, load: [() => config] });
}
