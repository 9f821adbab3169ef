import { Global, Module } from '@nestjs/common';
import { Clock } from './clock.js';
import { OpenApiRoutes } from './swagger/openapi-routes.js';

@Global()
@Module({ providers: [Clock, OpenApiRoutes], exports: [Clock] })
export class CommonModule {}
