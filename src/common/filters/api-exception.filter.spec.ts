import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Logger,
  MethodNotAllowedException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnsupportedMediaTypeException,
  type ArgumentsHost,
} from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';
import { DatabaseBusyError } from '../errors/database-errors.js';
import { ApiExceptionFilter } from './api-exception.filter.js';

/** What the filter wrote to the response. */
interface Written {
  status?: number;
  body?: unknown;
  headers: Record<string, string>;
  ended: boolean;
}

function run(exception: unknown, options: { headersSent?: boolean; path?: string } = {}): Written {
  const written: Written = { headers: {}, ended: false };
  const response = {
    headersSent: options.headersSent ?? false,
    setHeader(name: string, value: string) {
      written.headers[name.toLowerCase()] = value;
      return response;
    },
    status(code: number) {
      written.status = code;
      return response;
    },
    json(body: unknown) {
      written.body = body;
      return response;
    },
    end() {
      written.ended = true;
      return response;
    },
  };
  const request = {
    method: 'POST',
    requestId: 'req-1',
    path: options.path ?? '/api/v1/hotspot-users/%ZZ',
    route: { path: '/api/v1/hotspot-users' },
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ArgumentsHost;
  new ApiExceptionFilter().catch(exception, host);
  return written;
}

describe('ApiExceptionFilter', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new Logger()));

  it('writes an ApiError exactly as it is', () => {
    const written = run(ApiError.conflict([{ field: 'username', message: 'username already used in venue A' }]));
    expect(written.status).toBe(409);
    expect(written.body).toEqual({
      success: false,
      message: 'Conflict',
      errors: [{ field: 'username', message: 'username already used in venue A' }],
    });
  });

  it('keeps a custom ApiError status and message', () => {
    const written = run(ApiError.expiredUserNotEditable());
    expect(written.status).toBe(409);
    expect(written.body).toEqual({ success: false, message: 'Expired users cannot be edited' });
  });

  it('sets WWW-Authenticate: Bearer on a 401, and only there', () => {
    const unauthorized = run(ApiError.unauthorized());
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ success: false, message: 'Unauthorized' });
    expect(unauthorized.headers['www-authenticate']).toBe('Bearer');
    expect(run(ApiError.forbidden()).headers['www-authenticate']).toBeUndefined();
  });

  it('sets WWW-Authenticate on a 401 that is a plain HttpException too', () => {
    const written = run(new HttpException('nope', 401));
    expect(written.body).toEqual({ success: false, message: 'Unauthorized' });
    expect(written.headers['www-authenticate']).toBe('Bearer');
  });

  it('turns the JSON parser failure into a 400 naming the body, without the parser text', () => {
    const parserMessage = 'Unexpected token } in JSON at position 10';
    const written = run(new BadRequestException(parserMessage, { cause: { type: 'entity.parse.failed' } }));
    expect(written.status).toBe(400);
    expect(written.body).toEqual({
      success: false,
      message: 'Validation error',
      errors: [{ field: 'body', message: 'body is not valid JSON' }],
    });
    expect(JSON.stringify(written.body)).not.toContain('Unexpected token');
  });

  it('turns any other bare 400 into a validation error on the body', () => {
    const written = run(new BadRequestException('something internal'));
    expect(written.status).toBe(400);
    expect(written.body).toEqual({
      success: false,
      message: 'Validation error',
      errors: [{ field: 'body', message: 'request is malformed' }],
    });
  });

  it.each([
    ['PayloadTooLargeException', new PayloadTooLargeException('request entity too large'), 413, 'Payload Too Large'],
    ['UnsupportedMediaTypeException', new UnsupportedMediaTypeException('charset "x"'), 415, 'Unsupported Media Type'],
    ['NotFoundException', new NotFoundException('Cannot GET /nowhere'), 404, 'Not Found'],
    ['ForbiddenException', new ForbiddenException('Forbidden resource'), 403, 'Forbidden'],
    ['a 429 HttpException', new HttpException('slow down', HttpStatus.TOO_MANY_REQUESTS), 429, 'Too Many Requests'],
    ['a 418 HttpException', new HttpException('teapot', 418), 418, "I'm a Teapot"],
  ])('maps %s to its status with the fixed message', (_case, exception, status, message) => {
    const written = run(exception);
    expect(written.status).toBe(status);
    expect(written.body).toEqual({ success: false, message });
  });

  it('answers a wrong method on a known path like an unknown path', () => {
    const written = run(new MethodNotAllowedException());
    expect(written.status).toBe(404);
    expect(written.body).toEqual({ success: false, message: 'Not Found' });
  });

  it('answers a path parameter that cannot be decoded as an unknown user', () => {
    const written = run(new BadRequestException('Failed to decode param', { cause: new URIError('URI malformed') }));
    expect(written.status).toBe(404);
    expect(written.body).toEqual({ success: false, message: 'Kullanıcı bulunamadı' });
  });

  it.each([
    ['/api/v1/plans/%ZZ', 'Plan not found'],
    ['/api/v1/hotspot-user-batches/%E0%A4%A', 'Batch not found'],
    ['/api/v1/hotspot-users/%ZZ/usage', 'Kullanıcı bulunamadı'],
    ['/portal/%E0%A4%A', 'Not Found'],
    ['/admin/users/%ZZ', 'Not Found'],
  ])('answers %s, whose id cannot be decoded, as %s', (path, message) => {
    const written = run(new BadRequestException('Failed to decode param', { cause: new URIError('URI malformed') }), {
      path,
    });
    expect(written.status).toBe(404);
    expect(written.body).toEqual({ success: false, message });
  });

  it('answers an unauth job id that cannot be decoded as an unknown job', () => {
    const written = run(new BadRequestException('Failed to decode param', { cause: new URIError('URI malformed') }), {
      path: '/api/v1/unauth-jobs/%ZZ',
    });
    expect(written.status).toBe(404);
    expect(written.body).toEqual({ success: false, message: 'Unauth job not found' });
  });

  it.each([
    ['a driver error code', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' })],
    [
      'a TypeORM error wrapping the driver error',
      Object.assign(new Error('Query failed: SELECT secret FROM api_tokens'), {
        driverError: { code: 'PROTOCOL_CONNECTION_LOST' },
      }),
    ],
    ['a closed pool', new Error('Pool is closed.')],
    ['a closed MySQL DataSource', new Error('Connection is not established with mysql database')],
    ['a closed SQLite DataSource', new Error('QueryFailedError: TypeError: The database connection is not open')],
  ])('answers %s with 503 Service Unavailable, Retry-After 5 and no driver text', (_case, error) => {
    const written = run(error);
    expect(written.status).toBe(503);
    expect(written.body).toEqual({ success: false, message: 'Service Unavailable' });
    expect(written.headers['retry-after']).toBe('5');
  });

  it.each([
    ['retries that ran out', new DatabaseBusyError('database still contended after 6 tries', new Error('deadlock'))],
    [
      'a deadlock that escaped the retries',
      Object.assign(new Error('Query failed: Deadlock found when trying to get lock'), {
        driverError: { code: 'ER_LOCK_DEADLOCK', errno: 1213 },
      }),
    ],
    ['a lock wait timeout', Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT' })],
    ['a busy SQLite file', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
  ])('answers database contention (%s) with 503 and Retry-After 1, never 500', (_case, error) => {
    const written = run(error);
    expect(written.status).toBe(503);
    expect(written.body).toEqual({ success: false, message: 'Service Unavailable' });
    expect(written.headers['retry-after']).toBe('1');
  });

  it('sets Retry-After on database 503s only', () => {
    expect(run(new Error('boom')).headers['retry-after']).toBeUndefined();
    expect(run(ApiError.conflict([])).headers['retry-after']).toBeUndefined();
  });

  it('keeps a 503 HttpException a 503', () => {
    const written = run(new ServiceUnavailableException('db down at 10.0.0.5'));
    expect(written.status).toBe(503);
    expect(written.body).toEqual({ success: false, message: 'Service Unavailable' });
  });

  it('hides the text of a 5xx HttpException', () => {
    const written = run(new HttpException('internal detail', HttpStatus.BAD_GATEWAY));
    expect(written.status).toBe(502);
    expect(written.body).toEqual({ success: false, message: 'Internal server error' });
  });

  it.each([
    ['an Error', new Error('SELECT * FROM hotspot_users WHERE secret')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation that escaped', Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' })],
    ['a thrown string', 'boom'],
    ['undefined', undefined],
    ['null', null],
  ])('answers %s with 500 Internal server error and nothing of it in the body', (_case, error) => {
    const written = run(error);
    expect(written.status).toBe(500);
    expect(written.body).toEqual({ success: false, message: 'Internal server error' });
  });

  it('only ends a response whose headers are already sent', () => {
    const written = run(new Error('late'), { headersSent: true });
    expect(written.ended).toBe(true);
    expect(written.status).toBeUndefined();
    expect(written.body).toBeUndefined();
  });
});
