import type { LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import compression from 'compression';
import express from 'express';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module.js';
import { consoleBusyAnswer } from './console/console-busy.js';
import { pageSecurityHeaders } from './web/headers.js';
import { ConsoleViews } from './console/console-views.js';
import { isConsolePath } from './console/console-paths.js';
import { isPortalPath } from './portal/portal-paths.js';
import { SMS_REPORTS_PATH } from './sms/sms-reports.controller.js';
import { ApiExceptionFilter } from './common/filters/api-exception.filter.js';
import { configureHttpServer } from './common/http-server.js';
import { Admission } from './common/load/admission.js';
import { admissionMiddleware } from './common/load/admission.middleware.js';
import { RequestAges } from './common/load/request-deadline.js';
import { createPino, PinoLoggerService, type LogOutput } from './common/logging/pino-logger.js';
import { requestLogMiddleware } from './common/logging/request-log.middleware.js';
import { bodyChecks, requireUtf8Body } from './common/middleware/body-shape.middleware.js';
import { requestIdMiddleware, REQUEST_ID_HEADER } from './common/middleware/request-id.middleware.js';
import { securityHeaders } from './common/middleware/security-headers.js';
import { SERVICE_VERSION_HEADER, serviceVersion, versionLine } from './common/service-version.js';
import { createValidationPipe } from './common/pipes/validation.pipe.js';
import { DOCS_PATH } from './common/swagger/openapi.js';
import { OpenApiRoutes } from './common/swagger/openapi-routes.js';
import type { AppConfig, LogLevel } from './config/configuration.js';

const MAX_BODY_SIZE = '100kb';
/** As large as an API body: a venue's portal settings carry its terms and privacy texts. */
const CONSOLE_FORM_SIZE = '100kb';
/** A guest's forms hold a few short fields. */
const PORTAL_FORM_SIZE = '8kb';
/** Answers smaller than this go out uncompressed: gzip would gain little and cost CPU. */
const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Swagger UI and the OpenAPI document (/api/docs, /api/docs-json). */
const DOCS_PREFIX = `/${DOCS_PATH}`;

/** The service's logger through pino: to stdout unless told otherwise, pretty or JSON (LOG_FORMAT). */
export function createLogger(level: LogLevel, output: LogOutput = {}): LoggerService {
  return new PinoLoggerService(createPino(level, output));
}

/**
 * Drops the request headers that would let Express answer 304 Not Modified. Only when present: a
 * `delete` turns the headers object into a slow dictionary for every later lookup.
 */
function ignoreCacheValidators(req: Request): void {
  if (req.headers['if-none-match'] !== undefined) delete req.headers['if-none-match'];
  if (req.headers['if-modified-since'] !== undefined) delete req.headers['if-modified-since'];
}

/**
 * Builds the application exactly as it serves: main.ts and the e2e tests both go through here.
 * The order of the Express middleware matters: request id first (every response and log line
 * carries it), the request log, security headers, compression, then the JSON body checks around the parser,
 * then Nest's routing. The HTTP server gets its timeouts and connection limit here too.
 */
export async function createApp(
  config: AppConfig,
  options: { logDestination?: DestinationStream } = {},
): Promise<NestExpressApplication> {
  const pino = createPino(config.logLevel, { format: config.logFormat, destination: options.logDestination });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    abortOnError: false,
    logger: new PinoLoggerService(pino),
  });
  app.disable('x-powered-by');
  // Express would add a weak ETag of every body (errors too), and answer 304 to `If-None-Match: *` or
  // a matching tag: the API has no conditional GET, so neither happens.
  app.set('etag', false);
  // Client addresses (rate limits per IP) come from X-Forwarded-For only through this many proxies.
  app.set('trust proxy', config.trustProxyHops);
  const applySecurityHeaders = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        // Swagger UI at /api/docs styles itself inline and shows its logo as a data: URL.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        // The service is often reached over plain HTTP on a LAN; upgrading would break the docs page.
        'upgrade-insecure-requests': null,
      },
    },
  });
  const applyConsoleHeaders = pageSecurityHeaders();
  const applyPortalHeaders = pageSecurityHeaders({ imageSources: ['https:'] });
  const logRequest = requestLogMiddleware(pino);
  const version = versionLine(serviceVersion());
  // gzip or deflate when the client asks for it (Accept-Encoding), e.g. long user lists.
  const compress = compression({ threshold: COMPRESSION_THRESHOLD_BYTES });
  const admission = app.get(Admission);
  const admit = admissionMiddleware(admission, new RequestAges(), consoleBusyAnswer(app.get(ConsoleViews)));
  // What every request goes through before routing, in one Express layer (each layer is a router
  // step of its own): the request id first (every response and log line carries it), the request
  // log, the security headers, the admission (a deadline already past, or a tier being shed: 503
  // before the body is read or the token checked), then compression, which only a client that
  // accepts an encoding needs.
  app.use((req: Request, res: Response, next: NextFunction) => {
    ignoreCacheValidators(req);
    requestIdMiddleware(req, res, () => {
      logRequest(req, res, () => {
        if (isConsolePath(req.path)) applyConsoleHeaders(res);
        else if (isPortalPath(req.path)) applyPortalHeaders(res);
        else {
          applySecurityHeaders(res);
          // Answers carry personal data and, once, generated passwords and tokens: no cache keeps
          // them. Only the API's own documentation may be cached.
          if (!req.path.startsWith(DOCS_PREFIX)) res.setHeader('Cache-Control', 'no-store');
        }
        res.setHeader(SERVICE_VERSION_HEADER, version);
        // Caches must keep encoded and plain answers apart, whether or not this one gets encoded.
        res.setHeader('Vary', 'Accept-Encoding');
        admit(req, res, () => {
          if (req.headers['accept-encoding'] === undefined) next();
          else compress(req, res, next);
        });
      });
    });
  });
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', REQUEST_ID_HEADER],
      exposedHeaders: [
        REQUEST_ID_HEADER,
        SERVICE_VERSION_HEADER,
        // Names the unauth jobs a change wrote, for a browser client to follow them.
        'Link',
        'Retry-After',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ],
      maxAge: 600,
    });
  }
  // Not strict: any JSON parses, and the body checks answer a non-object with a precise message. Every
  // type: the body checks have already let only application/json and application/*+json through, and
  // the parser's default would leave a +json body unparsed.
  const parseApiBody = bodyChecks(
    express.json({ limit: MAX_BODY_SIZE, strict: false, type: () => true, verify: requireUtf8Body }),
  );
  // The console's and the portal's pages post HTML forms; nothing else reaches their routes.
  const parseConsoleForm = express.urlencoded({ extended: false, limit: CONSOLE_FORM_SIZE, parameterLimit: 20 });
  const parsePortalForm = express.urlencoded({ extended: false, limit: PORTAL_FORM_SIZE, parameterLimit: 20 });
  // An SMS provider's delivery report may be a form post (src/sms): a small one.
  const parseReportForm = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 30 });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isConsolePath(req.path)) parseConsoleForm(req, res, next);
    else if (isPortalPath(req.path)) parsePortalForm(req, res, next);
    else if (req.path.startsWith(SMS_REPORTS_PATH)) parseReportForm(req, res, next);
    else parseApiBody(req, res, next);
  });
  app.useGlobalFilters(new ApiExceptionFilter(admission));
  app.useGlobalPipes(createValidationPipe());
  // Swagger UI and the document, registered during init after the API's own routes.
  app.get(OpenApiRoutes).serve(app);
  configureHttpServer(app.getHttpServer(), config.http);
  await app.init();
  admission.start();
  return app;
}
