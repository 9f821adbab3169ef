import { Injectable, type INestApplication, type OnModuleInit } from '@nestjs/common';
import { setUpOpenApi } from './openapi.js';

/**
 * Registers the docs routes (setUpOpenApi) while the application initialises, after Nest has
 * registered the API's routes and before its not-found handler. Express tries routes in the order
 * they were added: registered first, the ten docs routes would be tried, and passed, by every API
 * request (about 5 % of the time of `GET /api/v1`).
 */
@Injectable()
export class OpenApiRoutes implements OnModuleInit {
  private app: INestApplication | null = null;

  /** Serve the docs of `app` once it initialises; call before `app.init()`. */
  serve(app: INestApplication): void {
    this.app = app;
  }

  onModuleInit(): void {
    if (this.app !== null) setUpOpenApi(this.app);
  }
}
