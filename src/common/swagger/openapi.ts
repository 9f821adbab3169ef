import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ErrorResponseDto, FieldErrorDto, MessageResponseDto } from './error-response.dto.js';
import { completeDocument } from './openapi-completion.js';

export const DOCS_PATH = 'api/docs';
const DOCS_TITLE = 'Hotspot User Management API';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(DOCS_TITLE)
    .setDescription(
      [
        'Manage the WiFi hotspot users of venues. Every /api/v1 endpoint needs `Authorization: Bearer <token>`; ' +
          'a token has a permission level (read < write < delete) and may be limited to venues. ' +
          'Errors always have the ErrorResponse shape. Every response carries `X-Request-Id`. ' +
          'An unknown path, or a method a path does not have, answers 404 `Not Found`. ' +
          'The FreeRADIUS back end (`/radius/*`) is not part of v1 and not described here.',
        '## Quick start',
        '1. Get a token. The first start on the embedded SQLite database prints one; otherwise create one from ' +
          "the service's folder: `npm run -s token -- create --name admin --permissions read,write,delete` " +
          '(in a container: `node dist/src/cli/main.js token create …`).',
        '2. Press **Authorize**, paste the token and close the dialog; this page keeps it when reloaded.',
        '3. Open an operation, press **Try it out**, fill in the fields you need (`venueId` for the list) and **Execute**.',
        'From a shell:',
        '```sh\n' +
          'TOKEN=hsp_…\n' +
          'curl -H "Authorization: Bearer $TOKEN" http://localhost:3000/api/v1\n' +
          'curl -H "Authorization: Bearer $TOKEN" \'http://localhost:3000/api/v1/hotspot-users?venueId=istanbul-lobby&status=active\'\n' +
          '```',
      ].join('\n\n'),
    )
    .setVersion('1.0.0')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque',
      description:
        'An opaque API token: `hsp_` and 43 random characters (not a JWT; nothing to decode). Created with ' +
        '`hotspot token create`; only its SHA-256 is stored. Send it as `Authorization: Bearer hsp_…`.',
    })
    // Relative: the document describes the server it is fetched from, whatever its public address.
    .addServer('/', 'This server')
    .build();
  config.info.license = { name: 'Proprietary (UNLICENSED)' };
  return completeDocument(
    SwaggerModule.createDocument(app, config, {
      extraModels: [ErrorResponseDto, FieldErrorDto, MessageResponseDto],
    }),
  );
}

/** Swagger UI at /api/docs, the document at /api/docs-json. */
export function setUpOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: `${DOCS_PATH}-json`,
    yamlDocumentUrl: `${DOCS_PATH}-yaml`,
    customSiteTitle: `${DOCS_TITLE} (v1)`,
    swaggerOptions: {
      // The token stays in the browser's local storage across reloads, until Logout.
      persistAuthorization: true,
    },
  });
}
