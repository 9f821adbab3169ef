import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { NEST_LOG_LEVELS } from './common/log-levels.js';
import { ApiExceptionFilter } from './common/filters/api-exception.filter.js';
import { requireJsonBody, requireObjectBody } from './common/middleware/body-shape.middleware.js';
import { requestIdMiddleware } from './common/middleware/request-id.middleware.js';
import { createValidationPipe } from './common/pipes/validation.pipe.js';
import { setUpOpenApi } from './common/swagger/openapi.js';
import type { AppConfig, LogLevel } from './config/configuration.js';

export const MAX_BODY_SIZE = '100kb';

export function createLogger(level: LogLevel): LoggerService {
  return new ConsoleLogger({ json: true, logLevels: NEST_LOG_LEVELS[level] });
}

/**
 * Builds the application exactly as it serves: main.ts and the e2e tests both go through here.
 * The order of the Express middleware matters: request id first (every response carries it), then
 * the JSON body checks around the parser, then Nest's routing.
 */
export async function createApp(
  config: AppConfig,
  options: { logger?: LoggerService | false } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    abortOnError: false,
    logger: options.logger ?? createLogger(config.logLevel),
  });
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  app.use(requireJsonBody);
  // Not strict: any JSON parses, and requireObjectBody answers a non-object with a precise message.
  app.useBodyParser('json', { limit: MAX_BODY_SIZE, strict: false });
  app.use(requireObjectBody);
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
  setUpOpenApi(app);
  await app.init();
  return app;
}
