import Ajv from 'ajv';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { OpenAPIObject } from '@nestjs/swagger';
import { UNKNOWN_ROUTE_RESPONSES } from '../../src/common/swagger/openapi-completion.js';

/*
 * Checks every response a test app sends against the OpenAPI document the app generates: the status
 * is declared for the operation, the body matches its schema, the declared required headers are
 * there and the API's own headers are declared. Mismatches are collected, and test-app.ts fails the
 * test (afterEach) that caused them.
 */

/** Not part of the documented API: the docs themselves, and FreeRADIUS's back end (not v1). */
const UNDOCUMENTED = [/^\/api\/docs(?:[-/.]|$)/, /^\/radius(?:\/|$)/, /^\/admin(?:\/|$)/i, /^\/portal(?:\/|$)/i];
/** The SMS gateways' delivery reports (src/sms), not part of v1 either. */
UNDOCUMENTED.push(/^\/sms\/reports\//);

/** Headers of the API's own making: a response carrying one must declare it. */
const OWN_HEADERS =
  /^(?:x-request-id|x-ratelimit-.*|retry-after|www-authenticate|location|etag|link|idempotent-replayed)$/;

interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

interface MediaType {
  schema?: unknown;
}
interface HeaderObject {
  required?: boolean;
  schema?: unknown;
  $ref?: string;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaType>;
}
type Responses = Record<string, ResponseObject>;

interface Route {
  template: string;
  pattern: RegExp;
  methods: Record<string, Responses>;
}

const escapePointer = (part: string): string => part.replace(/~/g, '~0').replace(/\//g, '~1');

export class OpenApiConformance {
  private readonly ajv = new Ajv({
    nullable: true,
    format: 'full',
    unknownFormats: 'ignore',
    allErrors: true,
    validateSchema: false,
  });
  private readonly headerAjv = new Ajv({
    nullable: true,
    coerceTypes: true,
    unknownFormats: 'ignore',
    validateSchema: false,
  });
  private readonly routes: Route[];
  private readonly validators = new Map<string, Ajv.ValidateFunction>();
  private mismatches: string[] = [];

  constructor(private readonly document: OpenAPIObject) {
    // Ajv 6 knows no idn-email: an address with internationalised characters, checked loosely.
    this.ajv.addFormat('idn-email', /^[^\s@]+@[^\s@]+$/u);
    this.ajv.addSchema(document, 'openapi');
    this.headerAjv.addSchema(document, 'openapi');
    this.routes = Object.entries(document.paths).map(([template, item]) => {
      const source = template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      // Express's routing is not strict about a trailing slash.
      return { template, pattern: new RegExp(`^${source}/?$`), methods: item as unknown as Record<string, Responses> };
    });
  }

  /** Records what `server` answers from now on. Runs before Express, so it sees every response. */
  attach(server: Server): void {
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.capture(req, res));
  }

  /** The mismatches since the last call, as one message (empty when there were none). */
  takeReport(): string {
    const report = this.mismatches.join('\n');
    this.mismatches = [];
    return report;
  }

  private capture(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    if (UNDOCUMENTED.some((pattern) => pattern.test(path))) return;
    // A CORS preflight is answered by the CORS middleware, outside the API.
    if (method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding: unknown): void => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as ServerResponse['write'];
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    }) as ServerResponse['end'];
    res.on('finish', () => {
      try {
        this.check({ method, path, status: res.statusCode, headers: res.getHeaders(), body: Buffer.concat(chunks) });
      } catch (error) {
        this.mismatches.push(`${method} ${path} → ${res.statusCode}: could not be checked (${String(error)})`);
      }
    });
  }

  private check(exchange: Exchange): void {
    const route = this.routes.find((candidate) => candidate.pattern.test(exchange.path));
    const verb = exchange.method === 'HEAD' ? 'get' : exchange.method.toLowerCase();
    const operation = route?.methods[verb];
    const responses =
      (operation?.responses as unknown as Responses | undefined) ??
      (this.document as unknown as Record<string, Responses>)[UNKNOWN_ROUTE_RESPONSES];
    const pointer =
      operation === undefined
        ? `/${UNKNOWN_ROUTE_RESPONSES}`
        : `/paths/${escapePointer(route!.template)}/${verb}/responses`;
    const name =
      operation === undefined
        ? `unknown route ${exchange.method} ${exchange.path}`
        : `${verb.toUpperCase()} ${route!.template}`;
    const status = String(exchange.status);
    const response = responses[status];
    const fail = (problem: string): void => {
      this.mismatches.push(`${name} (${exchange.method} ${exchange.path}) answered ${status}: ${problem}`);
    };
    if (response === undefined) {
      fail(`status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`);
      return;
    }
    this.checkHeaders(exchange, response, fail);
    if (exchange.method === 'HEAD' || exchange.status === 204 || exchange.status === 304) return;
    const media = response.content?.['application/json'];
    const body = decode(exchange);
    if (media?.schema === undefined) {
      if (body.length > 0) fail('a body was sent, but none is declared');
      return;
    }
    const contentType = String(exchange.headers['content-type'] ?? '');
    if (!/^application\/json\b/.test(contentType)) {
      fail(`Content-Type is ${contentType || 'missing'}, not application/json`);
      return;
    }
    const key = `${pointer}/${status}`;
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `openapi#${pointer}/${status}/content/application~1json/schema` });
      this.validators.set(key, validate);
    }
    const value: unknown = JSON.parse(body.toString('utf8'));
    if (validate(value) !== true) {
      fail(`the body does not match the schema: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
    }
  }

  private checkHeaders(exchange: Exchange, response: ResponseObject, fail: (problem: string) => void): void {
    const declared = new Map<string, HeaderObject>();
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      declared.set(name.toLowerCase(), header.$ref === undefined ? header : this.resolve(header.$ref));
    }
    for (const [name, header] of declared) {
      const value = exchange.headers[name];
      if (value === undefined) {
        if (header.required === true) fail(`the required header ${name} is missing`);
        continue;
      }
      if (header.schema !== undefined && this.headerAjv.validate(header.schema as object, String(value)) !== true) {
        fail(`the header ${name}: ${String(value)} does not match its schema (${this.headerAjv.errorsText()})`);
      }
    }
    for (const name of Object.keys(exchange.headers)) {
      if (OWN_HEADERS.test(name) && !declared.has(name)) fail(`the header ${name} is sent but not declared`);
    }
  }

  private resolve(ref: string): HeaderObject {
    let node: unknown = this.document;
    for (const part of ref.replace(/^#\//, '').split('/')) {
      node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node as HeaderObject;
  }
}

function decode(exchange: Exchange): Buffer {
  switch (String(exchange.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
      return gunzipSync(exchange.body);
    case 'deflate':
      return inflateSync(exchange.body);
    case 'br':
      return brotliDecompressSync(exchange.body);
    default:
      return exchange.body;
  }
}
