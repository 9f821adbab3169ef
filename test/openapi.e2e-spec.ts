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

    const schemes = Object.values(
      document.components.securitySchemes as Record<string, { type: string; scheme?: string }>,
    );
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
    ['get', '/api/v1/hotspot-users', 'read', ['200', '400', '401', '403', '413', '429', '500', '503']],
    ['get', '/api/v1/hotspot-users/{id}', 'read', ['200', '400', '401', '403', '404', '413', '429', '500', '503']],
    [
      'get',
      '/api/v1/hotspot-users/{id}/sessions',
      'read',
      ['200', '400', '401', '403', '404', '413', '429', '500', '503'],
    ],
    [
      'get',
      '/api/v1/hotspot-users/{id}/unauth-jobs',
      'read',
      ['200', '400', '401', '403', '404', '413', '429', '500', '503'],
    ],
    ['get', '/api/v1/sessions', 'read', ['200', '400', '401', '403', '413', '429', '500', '503']],
    ['get', '/api/v1/unauth-jobs/{id}', 'read', ['200', '400', '401', '403', '404', '413', '429', '500', '503']],
    [
      'post',
      '/api/v1/hotspot-users',
      'write',
      ['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503'],
    ],
    [
      'put',
      '/api/v1/hotspot-users/{id}',
      'write',
      ['200', '400', '401', '403', '404', '409', '412', '413', '415', '422', '429', '500', '503'],
    ],
    [
      'delete',
      '/api/v1/hotspot-users/{id}',
      'delete',
      ['200', '400', '401', '403', '404', '412', '413', '429', '500', '503'],
    ],
    [
      'post',
      '/api/v1/hotspot-users/{id}/expire',
      'write',
      ['200', '400', '401', '403', '404', '409', '412', '413', '415', '422', '429', '500', '503'],
    ],
    ['post', '/api/v1/plans', 'write', ['201', '400', '401', '403', '413', '415', '429', '500', '503']],
    ['get', '/api/v1/plans', 'read', ['200', '400', '401', '403', '413', '429', '500', '503']],
    ['get', '/api/v1/plans/{id}', 'read', ['200', '400', '401', '403', '404', '413', '429', '500', '503']],
    [
      'put',
      '/api/v1/plans/{id}',
      'write',
      ['200', '400', '401', '403', '404', '409', '413', '415', '429', '500', '503'],
    ],
    ['delete', '/api/v1/plans/{id}', 'write', ['200', '400', '401', '403', '404', '409', '413', '429', '500', '503']],
  ])(
    'documents %s %s: its permission (%s), body schemas and every status it can answer',
    async (method, path, permission, statuses) => {
      const document = (await current().http.get('/api/docs-json').expect(200)).body;
      const operation = document.paths[path][method];
      expect(operation['x-required-permission']).toBe(permission);
      expect(Object.keys(operation.responses).sort()).toEqual([...statuses].sort());
      for (const status of statuses.filter((code) => Number(code) >= 400)) {
        expect(operation.responses[status].content['application/json'].schema.$ref).toBe(
          '#/components/schemas/ErrorResponseDto',
        );
      }
      const success = operation.responses[statuses[0]].content['application/json'].schema.$ref;
      expect(document.components.schemas[success.split('/').pop()]).toBeDefined();
    },
  );

  it('declares the Link header naming unauth jobs on the answers of the changes that write them', async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const changes = [
      document.paths['/api/v1/hotspot-users/{id}'].put.responses['200'],
      document.paths['/api/v1/hotspot-users/{id}'].delete.responses['200'],
      document.paths['/api/v1/hotspot-users/{id}/expire'].post.responses['200'],
    ];
    for (const response of changes) {
      expect(response.headers.Link.required ?? false).toBe(false);
      expect(response.headers.Link.schema.type).toBe('string');
      expect(response.headers.Link.description).toMatch(/rel="unauth-job"/);
    }
    expect(document.paths['/api/v1/hotspot-users'].post.responses['201'].headers.Link).toBeUndefined();
  });

  it("documents an unauth job's status and each session's outcome as enumerations", async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const { schemas } = document.components;
    expect(schemas.UnauthJobDto.properties.status.enum).toEqual(['pending', 'processing', 'done', 'failed']);
    expect(schemas.UnauthJobDto.properties.nextAttemptAt).toMatchObject({ type: 'string', nullable: true });
    const session = schemas.UnauthJobSessionDto.properties;
    expect(session.outcome.enum).toEqual(['waiting', 'ack', 'nak', 'no-answer', 'not-sent', 'stopped-by-nas']);
    expect(session.state.enum).toEqual(['pending', 'done', 'failed']);
    expect(session.errorCause).toMatchObject({ type: 'object', nullable: true, required: ['code', 'name'] });
    expect(Object.keys(schemas.UnauthJobDto.properties)).not.toContain('leaseExpiresAt');
    const notFound = document.paths['/api/v1/unauth-jobs/{id}'].get.responses['404'];
    expect(notFound.content['application/json'].example.message).toBe('Unauth job not found');
  });

  it('sends no ETag of its own making and never answers 304 to If-None-Match', async () => {
    const response = await current()
      .http.get('/api/v1')
      .set('Authorization', `Bearer ${current().adminToken}`)
      .set('If-None-Match', '*')
      .expect(200);
    expect(response.headers.etag).toBeUndefined();
    expect(response.body).toEqual({ success: true, message: 'Server API aktif' });
  });

  it('declares string | null fields as nullable strings with their formats, and integers for pagination', async () => {
    const { schemas } = (await current().http.get('/api/docs-json').expect(200)).body.components;
    for (const dto of ['CreateHotspotUserDto', 'UpdateHotspotUserDto']) {
      for (const field of ['username', 'email', 'phone', 'expiresAt']) {
        expect(schemas[dto].properties[field]).toMatchObject({ type: 'string', nullable: true });
      }
    }
    expect(schemas.CreateHotspotUserDto.properties.macAddress).toMatchObject({ type: 'string', nullable: true });
    expect(schemas.HotspotUserDto.properties.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schemas.HotspotUserDto.properties.email).toMatchObject({
      type: 'string',
      format: 'idn-email',
      nullable: true,
    });
    for (const field of ['page', 'limit', 'total', 'pages'])
      expect(schemas.PaginationDto.properties[field].type).toBe('integer');
    expect(schemas.ExpireResultDto.properties.expiredSessions.type).toBe('integer');
  });

  it("documents the venue's sessions list: its query parameters and a session's fields, stale included", async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const operation = document.paths['/api/v1/sessions'].get;
    const parameters = Object.fromEntries(
      operation.parameters.map((parameter: { name: string; in: string; required?: boolean; schema: object }) => [
        parameter.name,
        parameter,
      ]),
    );
    expect(Object.keys(parameters).sort()).toEqual(['limit', 'page', 'status', 'venueId']);
    for (const parameter of Object.values(parameters))
      expect(parameter).toMatchObject({ in: 'query', required: false });
    expect(parameters.status.schema).toMatchObject({ enum: ['active', 'ended'] });
    expect(parameters.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(parameters.page.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    const session = document.components.schemas.VenueSessionDto;
    expect(session.properties.stale).toMatchObject({ type: 'boolean' });
    expect(session.properties.userId).toMatchObject({ type: 'string' });
    expect(session.properties.lastUpdateAt).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
    expect(session.required).toEqual(expect.arrayContaining(['id', 'userId', 'venueId', 'status', 'stale']));
  });

  it('describes the token as an opaque bearer token, a relative server, public probes and no /radius routes', async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const scheme = Object.values(document.components.securitySchemes)[0] as Record<string, string>;
    expect(scheme.bearerFormat).not.toMatch(/jwt/i);
    expect(scheme.description).toMatch(/hsp_/);
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.paths['/healthz'].get.security).toEqual([]);
    expect(document.paths['/readyz'].get.security).toEqual([]);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/radius'))).toEqual([]);
    expect(document.paths['/api/v1/hotspot-users/{id}/sessions'].get.responses['200']).toBeDefined();
  });

  it('gives each error status its own example and the headers it carries', async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const responses = document.paths['/api/v1/hotspot-users/{id}'].put.responses;
    const message = (status: string): string => responses[status].content['application/json'].example.message;
    expect(message('401')).toBe('Unauthorized');
    expect(message('404')).toBe('Kullanıcı bulunamadı');
    expect(message('413')).toBe('Payload Too Large');
    expect(message('415')).toBe('Unsupported Media Type');
    expect(message('429')).toBe('Too Many Requests');
    expect(message('500')).toBe('Internal server error');
    expect(message('503')).toBe('Service Unavailable');
    expect(Object.keys(responses['401'].headers)).toEqual(expect.arrayContaining(['X-Request-Id', 'WWW-Authenticate']));
    expect(Object.keys(responses['429'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit']));
    expect(Object.keys(responses['200'].headers)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Remaining']),
    );
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

  it('documents the body of POST expire as optional, its venueId as nullable', async () => {
    const document = (await current().http.get('/api/docs-json').expect(200)).body;
    const expire = document.paths['/api/v1/hotspot-users/{id}/expire'].post;
    expect(expire.requestBody.required).toBe(false);
    const body = document.components.schemas.ExpireHotspotUserDto;
    expect(expire.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ExpireHotspotUserDto',
    });
    expect(body.required ?? []).toEqual([]);
    expect(body.properties.venueId).toMatchObject({ type: 'string', nullable: true });
  });
});
