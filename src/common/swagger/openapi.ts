import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ErrorResponseDto, FieldErrorDto, MessageResponseDto } from './error-response.dto.js';

export const DOCS_PATH = 'api/docs';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Hotspot User Management API')
    .setDescription(
      'Manage the WiFi hotspot users of venues. Every /api/v1 endpoint needs `Authorization: Bearer <token>`; ' +
        'a token has a permission level (read < write < delete) and may be limited to venues. ' +
        'Errors always have the ErrorResponse shape. Every response carries `X-Request-Id`.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token such as hsp_…' })
    .build();
  return SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorResponseDto, FieldErrorDto, MessageResponseDto],
  });
}

/** Swagger UI at /api/docs, the document at /api/docs-json. */
export function setUpOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: `${DOCS_PATH}-json`,
    yamlDocumentUrl: `${DOCS_PATH}-yaml`,
  });
}
