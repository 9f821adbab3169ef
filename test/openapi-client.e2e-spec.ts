import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);

/** A small client program on the generated types: plain fetch, every request and answer typed. */
const PROGRAM = `
import type { paths } from './api.js';

type Json<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

const [base, token] = process.argv.slice(2);
const headers = { Authorization: \`Bearer \${token}\`, 'Content-Type': 'application/json' };

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(\`\${method} \${path}: \${response.status} \${await response.text()}\`);
  return (await response.json()) as T;
}

const create: Body<'/api/v1/hotspot-users', 'post'> = {
  name: 'Client Typed',
  loginMethod: 'username_password',
  username: 'typed-client',
  password: 'sunrise42',
  email: 'typed@example.com',
  phone: null,
  macAddress: 'aa-bb-cc-dd-ee-01',
  venueIds: ['client-venue'],
  expiresAt: '2031-01-31T12:00:00Z',
  metadata: { room: '1204' },
};
const created = await call<Json<'/api/v1/hotspot-users', 'post', 201>>('POST', '/api/v1/hotspot-users', create);
const id: string = created.data._id;

const list = await call<Json<'/api/v1/hotspot-users', 'get', 200>>('GET', '/api/v1/hotspot-users?venueId=client-venue');
const total: number = list.pagination.total;

const change: Body<'/api/v1/hotspot-users/{id}', 'put'> = { status: 'blocked', email: null, expiresAt: null };
const updated = await call<Json<'/api/v1/hotspot-users/{id}', 'put', 200>>('PUT', \`/api/v1/hotspot-users/\${id}\`, change);
const email: string | null = updated.data.email;

const expired = await call<Json<'/api/v1/hotspot-users/{id}/expire', 'post', 200>>('POST', \`/api/v1/hotspot-users/\${id}/expire\`);
const sessions: number = expired.data.expiredSessions;

const jobs = await call<Json<'/api/v1/hotspot-users/{id}/unauth-jobs', 'get', 200>>('GET', \`/api/v1/hotspot-users/\${id}/unauth-jobs\`);
const job = await call<Json<'/api/v1/unauth-jobs/{id}', 'get', 200>>('GET', \`/api/v1/unauth-jobs/\${jobs.data[0].id}\`);
const causes: Array<number | undefined> = job.data.sessions.map((session) => session.errorCause?.code);

const deleted = await call<Json<'/api/v1/hotspot-users/{id}', 'delete', 200>>('DELETE', \`/api/v1/hotspot-users/\${id}\`);

process.stdout.write(
  JSON.stringify({
    mac: created.data.macAddress,
    total,
    status: updated.data.status,
    email,
    expiredStatus: expired.data.user.status,
    sessions,
    jobs: jobs.pagination.total,
    jobReason: job.data.reason,
    causes,
    deleted: deleted.success,
  }),
);
`;

describe('a client generated from the OpenAPI document (openapi-typescript)', () => {
  let testApp: TestApp | undefined;
  let dir = '';
  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    await testApp.app.listen(0, '127.0.0.1');
    dir = await mkdtemp(join(tmpdir(), 'hotspot-client-'));
  });
  afterAll(async () => {
    await testApp?.close();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('type-checks (strict) and creates, lists, updates, expires, follows the job of and deletes a user against the running service', async () => {
    const app = testApp!;
    const document: unknown = (await app.http.get('/api/docs-json').expect(200)).body;
    await writeFile(join(dir, 'api.ts'), astToString(await openapiTS(JSON.stringify(document))));
    await writeFile(join(dir, 'client.ts'), PROGRAM);

    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: false,
      outDir: join(dir, 'out'),
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts'],
      // The program runs on Node (fetch, process): the project's own @types/node.
      typeRoots: [join(process.cwd(), 'node_modules/@types')],
      types: ['node'],
      skipLibCheck: true,
    };
    await writeFile(join(dir, 'package.json'), '{"type":"module"}');
    const program = ts.createProgram([join(dir, 'client.ts')], options);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    program.emit();

    const { port } = app.app.getHttpServer().address() as AddressInfo;
    const { stdout } = await run(process.execPath, [
      join(dir, 'out', 'client.js'),
      `http://127.0.0.1:${port}`,
      app.adminToken,
    ]);
    expect(JSON.parse(stdout)).toEqual({
      mac: 'AA:BB:CC:DD:EE:01',
      total: 1,
      status: 'blocked',
      email: null,
      expiredStatus: 'expired',
      sessions: 0,
      // The block wrote a job (without sessions: the user had none).
      jobs: 1,
      jobReason: 'blocked',
      causes: [],
      deleted: true,
    });
  });

  it('would not type-check a client that sends a number where the document says string', async () => {
    const app = testApp!;
    const document: unknown = (await app.http.get('/api/docs-json').expect(200)).body;
    await writeFile(join(dir, 'api.ts'), astToString(await openapiTS(JSON.stringify(document))));
    await writeFile(
      join(dir, 'wrong.ts'),
      "import type { components } from './api.js';\n" +
        "export const body: components['schemas']['UpdateHotspotUserDto'] = { email: 42 };\n",
    );
    const program = ts.createProgram([join(dir, 'wrong.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    });
    // The one problem: the number.
    expect(ts.getPreEmitDiagnostics(program).length).toBeGreaterThan(0);
  });
});
