import { startTestApp, type TestApp } from './support/test-app.js';

// The document is built from the code alone, whatever the database, so one SQLite app serves it.
describe('OpenAPI document', () => {
  let testApp: TestApp | undefined;
  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await testApp?.close();
  });
  const current = (): TestApp => {
    if (testApp === undefined) throw new Error('test app not started');
    return testApp;
  };

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

  it.each([
    ['get', '/api/v1/hotspot-users', 'read', ['200', '400', '401', '403', '500', '503']],
    ['get', '/api/v1/hotspot-users/{id}', 'read', ['200', '400', '401', '403', '404', '500', '503']],
    ['post', '/api/v1/hotspot-users', 'write', ['201', '400', '401', '403', '409', '413', '415', '422', '500', '503']],
    ['put', '/api/v1/hotspot-users/{id}', 'write', ['200', '400', '401', '403', '404', '409', '412', '413', '415', '500', '503']],
    ['delete', '/api/v1/hotspot-users/{id}', 'delete', ['200', '400', '401', '403', '404', '412', '500', '503']],
    [
      'post',
      '/api/v1/hotspot-users/{id}/expire',
      'write',
      ['200', '400', '401', '403', '404', '409', '412', '413', '415', '422', '500', '503'],
    ],
  ])('documents %s %s: its permission (%s), body schemas and every status it can answer', async (method, path, permission, statuses) => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const operation = document.paths[path][method];
    expect(operation['x-required-permission']).toBe(permission);
    expect(Object.keys(operation.responses).sort()).toEqual([...statuses].sort());
    for (const status of statuses.filter((code) => Number(code) >= 400)) {
      expect(operation.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponseDto');
    }
    const success = operation.responses[statuses[0]].content['application/json'].schema.$ref;
    expect(document.components.schemas[success.split('/').pop()]).toBeDefined();
  });

  it('generates the create and update bodies from the validating DTOs, with examples', async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const create = document.components.schemas.CreateHotspotUserDto;
    expect(create.required).toEqual(expect.arrayContaining(['name', 'loginMethod', 'venueIds']));
    expect(create.properties.loginMethod.enum).toEqual(['username_password', 'guest']);
    expect(create.properties.venueIds).toMatchObject({ minItems: 1, maxItems: 50 });
    expect(create.properties.name.example).toEqual(expect.any(String));
    const update = document.components.schemas.UpdateHotspotUserDto;
    expect(update.required ?? []).toEqual([]);
    expect(Object.keys(update.properties)).not.toContain('loginMethod');
    expect(Object.keys(update.properties)).not.toContain('password');
  });
});
