import { describeEachDatabase } from './support/test-app.js';

describeEachDatabase('OpenAPI document', (current) => {
  it('GET /api/docs serves the Swagger UI page without a token', async () => {
    const response = await current().http.get('/api/docs').redirects(1).expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toMatch(/<html/i);
    expect(response.text).toMatch(/swagger/i);
  });

  it('GET /api/docs-json is an OpenAPI 3 document with bearer auth and the ErrorResponse schema', async () => {
    const response = await current().http.get('/api/docs-json').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = response.body;
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info).toMatchObject({ title: expect.any(String), version: '1.0.0' });

    const schemes = Object.values(document.components.securitySchemes as Record<string, { type: string; scheme?: string }>);
    expect(schemes).toContainEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));

    const error = document.components.schemas.ErrorResponseDto;
    expect(error).toBeDefined();
    expect(error.required).toEqual(expect.arrayContaining(['success', 'message']));
    expect(error.required).not.toContain('errors');
    expect(Object.keys(error.properties).sort()).toEqual(['errors', 'message', 'success']);
    expect(document.components.schemas.FieldErrorDto.properties).toHaveProperty('field');
  });

  it('documents the status endpoint as needing a bearer token, and the probes as not', async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const schemeName = Object.keys(document.components.securitySchemes)[0];
    const status = document.paths['/api/v1'].get;
    expect(status.security).toContainEqual({ [schemeName]: [] });
    expect(status.responses['401'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorResponseDto',
    );
    expect(document.paths['/healthz'].get.security ?? []).toEqual([]);
  });
});
