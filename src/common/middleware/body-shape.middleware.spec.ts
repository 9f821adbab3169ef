import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error.js';
import {
  BODY_NOT_UTF8,
  bodyChecks,
  jsonDepth,
  MAX_BODY_DEPTH,
  requireJsonBody,
  requireObjectBody,
  requireUtf8Body,
} from './body-shape.middleware.js';

function nested(levels: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < levels; i += 1) value = { child: value };
  return value;
}

/** Runs a middleware and returns what it passed to next(). */
function run(
  middleware: (req: Request, res: Response, next: NextFunction) => void,
  req: { method: string; headers?: Record<string, string>; body?: unknown },
): { called: boolean; error?: unknown } {
  const outcome: { called: boolean; error?: unknown } = { called: false };
  const request = { headers: {}, ...req } as unknown as Request;
  middleware(request, {} as Response, (error?: unknown) => {
    outcome.called = true;
    outcome.error = error;
  });
  return outcome;
}

function expectApiError(error: unknown, status: number, body: unknown): void {
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).getStatus()).toBe(status);
  expect((error as ApiError).body).toEqual(body);
}

describe('jsonDepth', () => {
  it('is 0 for scalars', () => {
    for (const value of [null, 1, 'text', true, undefined]) expect(jsonDepth(value, 16)).toBe(0);
  });

  it('counts the value itself as level 1', () => {
    expect(jsonDepth({}, 16)).toBe(1);
    expect(jsonDepth([], 16)).toBe(1);
    expect(jsonDepth({ a: 1, b: 'x' }, 16)).toBe(1);
  });

  it('counts objects and arrays alike, following the deepest branch', () => {
    expect(jsonDepth({ a: { b: {} } }, 16)).toBe(3);
    expect(jsonDepth([[[1]]], 16)).toBe(3);
    expect(jsonDepth({ shallow: {}, deep: [{ x: [{}] }], other: 1 }, 16)).toBe(5);
    expect(jsonDepth(nested(16), 16)).toBe(16);
  });

  it('stops counting soon after the limit is passed', () => {
    const depth = jsonDepth(nested(1000), 16);
    expect(depth).toBeGreaterThan(16);
    expect(depth).toBeLessThan(1000);
  });

  it('copes with nesting far deeper than the call stack would allow', () => {
    expect(jsonDepth(nested(200_000), Number.MAX_SAFE_INTEGER)).toBe(200_000);
  });
});

describe('requireJsonBody', () => {
  const unsupported = { success: false, message: 'Unsupported Media Type' };

  it.each(['POST', 'PUT', 'PATCH'])('refuses a %s body without a Content-Type with 415', (method) => {
    const { error } = run(requireJsonBody, { method, headers: { 'content-length': '2' } });
    expectApiError(error, 415, unsupported);
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    'json',
  ])('refuses a body of type %j with 415', (contentType) => {
    const { error } = run(requireJsonBody, {
      method: 'POST',
      headers: { 'content-length': '2', 'content-type': contentType },
    });
    expectApiError(error, 415, unsupported);
  });

  it('refuses a chunked body without a Content-Type', () => {
    const { error } = run(requireJsonBody, { method: 'PUT', headers: { 'transfer-encoding': 'chunked' } });
    expectApiError(error, 415, unsupported);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json'])(
    'lets %j through',
    (contentType) => {
      const outcome = run(requireJsonBody, {
        method: 'POST',
        headers: { 'content-length': '2', 'content-type': contentType },
      });
      expect(outcome).toEqual({ called: true, error: undefined });
    },
  );

  it('lets a POST without a body through, whatever its Content-Type', () => {
    expect(run(requireJsonBody, { method: 'POST', headers: {} })).toEqual({ called: true, error: undefined });
    expect(
      run(requireJsonBody, { method: 'POST', headers: { 'content-length': '0', 'content-type': 'text/plain' } }),
    ).toEqual({
      called: true,
      error: undefined,
    });
  });

  it.each(['GET', 'DELETE', 'HEAD'])('does not look at %s requests', (method) => {
    expect(run(requireJsonBody, { method, headers: { 'content-length': '5', 'content-type': 'text/plain' } })).toEqual({
      called: true,
      error: undefined,
    });
  });
});

describe('requireObjectBody', () => {
  const withBody = (body: unknown, method = 'POST') => ({ method, headers: { 'content-length': '10' }, body });

  it('lets a JSON object through', () => {
    expect(run(requireObjectBody, withBody({ name: 'x' }))).toEqual({ called: true, error: undefined });
    expect(run(requireObjectBody, withBody({}, 'PUT'))).toEqual({ called: true, error: undefined });
  });

  it.each([
    ['an array', []],
    ['an array of objects', [{ name: 'x' }]],
    ['null', null],
    ['a string', 'text'],
    ['a number', 5],
  ])('refuses %s with a 400 naming the body', (_case, body) => {
    const { error } = run(requireObjectBody, withBody(body));
    expectApiError(error, 400, {
      success: false,
      message: 'Validation error',
      errors: [{ field: 'body', message: 'body must be a JSON object' }],
    });
  });

  it(`accepts ${MAX_BODY_DEPTH} levels and refuses one more`, () => {
    expect(MAX_BODY_DEPTH).toBe(16);
    expect(run(requireObjectBody, withBody(nested(MAX_BODY_DEPTH)))).toEqual({ called: true, error: undefined });
    const { error } = run(requireObjectBody, withBody(nested(MAX_BODY_DEPTH + 1)));
    expectApiError(error, 400, {
      success: false,
      message: 'Validation error',
      errors: [{ field: 'body', message: 'body must not nest deeper than 16 levels' }],
    });
  });

  it('ignores requests without a body and methods that take none', () => {
    expect(run(requireObjectBody, { method: 'POST', headers: {}, body: undefined })).toEqual({
      called: true,
      error: undefined,
    });
    expect(run(requireObjectBody, { method: 'GET', headers: { 'content-length': '2' }, body: [] })).toEqual({
      called: true,
      error: undefined,
    });
  });
});

describe('bodyChecks', () => {
  /** A stand-in for the JSON parser: records its calls, sets `parsed` as the body or fails with `failure`. */
  function parser(parsed: unknown, failure?: Error) {
    const calls: string[] = [];
    const parse = (req: Request, _res: Response, next: NextFunction) => {
      calls.push(req.method);
      if (failure !== undefined) next(failure);
      else {
        req.body = parsed;
        next();
      }
    };
    return { calls, parse };
  }

  it('skips every check, the parser too, for a request that announces no body', () => {
    const { calls, parse } = parser({});
    for (const method of ['GET', 'DELETE', 'POST']) {
      expect(run(bodyChecks(parse), { method, headers: {} })).toEqual({ called: true, error: undefined });
    }
    expect(calls).toEqual([]);
  });

  it('refuses a body that is not JSON before parsing it', () => {
    const { calls, parse } = parser({});
    const { error } = run(bodyChecks(parse), {
      method: 'POST',
      headers: { 'content-length': '5', 'content-type': 'text/plain' },
    });
    expect((error as ApiError).getStatus()).toBe(415);
    expect(calls).toEqual([]);
  });

  it("hands on the parser's error", () => {
    const failure = new Error('malformed');
    const { parse } = parser(undefined, failure);
    const headers = { 'content-length': '5', 'content-type': 'application/json' };
    expect(run(bodyChecks(parse), { method: 'PUT', headers })).toEqual({ called: true, error: failure });
  });

  it('checks the shape of what the parser read', () => {
    const headers = { 'content-length': '2', 'content-type': 'application/json' };
    expect(run(bodyChecks(parser({ name: 'x' }).parse), { method: 'POST', headers })).toEqual({
      called: true,
      error: undefined,
    });
    const { error } = run(bodyChecks(parser([]).parse), { method: 'POST', headers });
    expect((error as ApiError).body).toEqual({
      success: false,
      message: 'Validation error',
      errors: [{ field: 'body', message: 'body must be a JSON object' }],
    });
  });

  it('parses the body of a chunked request', () => {
    const { calls, parse } = parser({});
    const headers = { 'transfer-encoding': 'chunked', 'content-type': 'application/json' };
    expect(run(bodyChecks(parse), { method: 'POST', headers })).toEqual({ called: true, error: undefined });
    expect(calls).toEqual(['POST']);
  });
});

describe('requireUtf8Body', () => {
  const check =
    (bytes: number[], encoding = 'utf-8') =>
    () =>
      requireUtf8Body({} as Request, {} as Response, Buffer.from(bytes), encoding);

  it('lets valid UTF-8 through, multi-byte characters included', () => {
    expect(check([...Buffer.from('{"name":"Şükrü 🛜"}')])).not.toThrow();
  });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['a surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
  ])('refuses %s with a 400 the filter names', (_case, bytes) => {
    expect(check(bytes)).toThrow(expect.objectContaining({ status: 400, type: BODY_NOT_UTF8 }));
    expect(check(bytes, 'utf8')).toThrow(expect.objectContaining({ type: BODY_NOT_UTF8 }));
  });

  it('leaves bodies in another charset to the parser', () => {
    expect(check([0xff, 0xfe, 0x7b, 0x00], 'utf-16le')).not.toThrow();
  });
});
