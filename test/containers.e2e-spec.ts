import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The container files as an operator relies on them: `docker compose up` brings MySQL 8.4 (data on
 * a named volume), Redis and the API wired together; the image is multi-stage, runs as a non-root
 * user with only production dependencies, and Docker can probe its health. Read as files: no
 * Docker daemon is needed.
 */

const root = process.cwd();

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: Array<string | { type?: string; source?: string; target?: string }>;
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  ports?: Array<string | number | Record<string, unknown>>;
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** A service's environment as a map, whichever of the two Compose forms it uses. */
function environment(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const at = entry.indexOf('=');
        return at === -1 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value === null ? '' : String(value)]));
}

/** `source:target` volume entries of a service, in either Compose form. */
function mounts(service: ComposeService): Array<{ source: string; target: string }> {
  return (service.volumes ?? []).map((volume) => {
    if (typeof volume === 'string') {
      const [source, target] = volume.split(':');
      return { source, target };
    }
    return { source: volume.source ?? '', target: volume.target ?? '' };
  });
}

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, continuation lines joined, comments and parser directives dropped. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\r?\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^(\S+)\s*(.*)$/.exec(line) as RegExpExecArray;
      return { keyword: match[1].toUpperCase(), args: match[2] };
    });
}

/** Splits the instructions into build stages, each starting at a FROM. */
function stages(all: Instruction[]): Array<{ name: string | null; steps: Instruction[] }> {
  const result: Array<{ name: string | null; steps: Instruction[] }> = [];
  for (const step of all) {
    if (step.keyword === 'FROM') {
      const name = /\s+AS\s+(\S+)\s*$/i.exec(step.args)?.[1] ?? null;
      result.push({ name, steps: [step] });
    } else if (result.length > 0) {
      result[result.length - 1].steps.push(step);
    }
  }
  return result;
}

/** The exec-form (JSON array) or shell-form command of CMD/ENTRYPOINT as one string. */
function commandLine(args: string): string {
  try {
    const parsed = JSON.parse(args) as unknown;
    if (Array.isArray(parsed)) return parsed.join(' ');
  } catch {
    // shell form
  }
  return args;
}

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as ComposeFile;

  it('names the services mysql, redis and app', () => {
    expect(Object.keys(compose.services).sort()).toEqual(expect.arrayContaining(['app', 'mysql', 'redis']));
  });

  it('mysql: MySQL 8.4 with its data on a named volume, a health check, and the database the app uses', () => {
    const mysql = compose.services.mysql;
    expect(mysql.image).toBe('mysql:8.4');
    const data = mounts(mysql).find((mount) => mount.target === '/var/lib/mysql');
    expect(data).toBeDefined();
    // A named volume (declared at the top level), not a bind mount of a host path.
    expect(data?.source).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/);
    expect(Object.keys(compose.volumes ?? {})).toContain(data?.source);
    expect(mysql.healthcheck?.test).toBeDefined();

    const env = environment(mysql);
    const url = new URL(environment(compose.services.app).DATABASE_URL);
    expect(env.MYSQL_DATABASE).toBe(url.pathname.slice(1));
    expect(env.MYSQL_USER).toBe(decodeURIComponent(url.username));
    expect(env.MYSQL_PASSWORD).toBe(decodeURIComponent(url.password));
  });

  it('redis: a Redis service', () => {
    expect(compose.services.redis.image).toMatch(/^redis(:|$)/);
  });

  it('app: built from this folder, on mysql and redis by service name, BOOTSTRAP_TOKEN from the environment', () => {
    const app = compose.services.app;
    const context = typeof app.build === 'string' ? app.build : app.build?.context;
    expect(context).toBe('.');

    const env = environment(app);
    expect(env.DATABASE_URL).toMatch(/^mysql:\/\/[^@/]+@mysql(:3306)?\/[A-Za-z0-9_]+$/);
    expect(env.REDIS_URL).toMatch(/^redis:\/\/redis(:6379)?(\/\d+)?$/);
    // Taken from the environment (or .env) at `docker compose up`, never a value written here.
    expect(env.BOOTSTRAP_TOKEN).toMatch(/^\$\{BOOTSTRAP_TOKEN(:?[?-][^}]*)?\}$/);
    // Reachable from outside the container: HOST here, else the one the image sets.
    const imageEnv = (stages(instructions(readFileSync(join(root, 'Dockerfile'), 'utf8'))).at(-1)?.steps ?? [])
      .filter((step) => step.keyword === 'ENV')
      .map((step) => step.args)
      .join(' ');
    expect(env.HOST ?? /(?:^|\s)HOST=(\S+)/.exec(imageEnv)?.[1]).toBe('0.0.0.0');
    // On the host's loopback unless APP_BIND says otherwise.
    expect((app.ports ?? []).map(String)).toEqual(['${APP_BIND:-127.0.0.1}:3000:3000']);
    // Required like BOOTSTRAP_TOKEN: without it NAS secrets would be stored in clear.
    expect(env.SECRETS_KEY).toMatch(/^\$\{SECRETS_KEY:\?[^}]+\}$/);
  });

  it('freeradius: FreeRADIUS 3.2 on the generated configuration, shared with the app through a named volume, opt-in', () => {
    const radius = compose.services.freeradius as ComposeService & {
      profiles?: string[];
      entrypoint?: string[];
      command?: string[];
    };
    expect(radius.image).toMatch(/^freeradius\/freeradius-server:3\.2\.\d+/);
    expect(radius.profiles).toEqual(['radius']);
    const command = [...(radius.entrypoint ?? []), ...(radius.command ?? [])].join(' ');
    expect(command).toMatch(/^freeradius -f -l stdout -d (\S+)$/);
    expect(command).not.toContain('-X');
    const confDir = /-d (\S+)$/.exec(command)![1];
    const volume = mounts(radius).find((mount) => mount.target === confDir)?.source;
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    // The app writes into the same volume (hotspot radius-config --out /app/radius-config).
    expect(mounts(compose.services.app)).toContainEqual({ source: volume, target: '/app/radius-config' });
    expect((radius.ports ?? []).map(String)).toEqual(['1812:1812/udp', '1813:1813/udp']);
    expect(environment(compose.services.app).SECRETS_KEY).toMatch(/^\$\{SECRETS_KEY(:?[?-][^}]*)?\}$/);
  });

  it('app: starts once MySQL is healthy (and Redis, when it says so); each service it waits on has a health check', () => {
    const dependsOn = compose.services.app.depends_on;
    expect(dependsOn).toBeDefined();
    expect(Array.isArray(dependsOn)).toBe(false);
    const conditions = dependsOn as Record<string, { condition?: string }>;
    expect(conditions.mysql?.condition).toBe('service_healthy');
    const awaitedHealthy = Object.keys(conditions).filter((name) => conditions[name].condition === 'service_healthy');
    expect(awaitedHealthy).toContain('mysql');
    for (const name of awaitedHealthy) {
      expect({ name, check: compose.services[name]?.healthcheck?.test }).toEqual({ name, check: expect.anything() });
    }
  });
});

describe('Dockerfile', () => {
  const all = instructions(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  const built = stages(all);
  const final = built[built.length - 1];
  const finalSteps = final.steps;

  it('is multi-stage', () => {
    expect(built.length).toBeGreaterThanOrEqual(2);
  });

  it('the final stage runs as a non-root user', () => {
    const users = finalSteps.filter((step) => step.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1].args.split(':')[0].trim();
    expect(user).not.toMatch(/^(root|0)$/);
    // The USER comes before the command that starts the service.
    const cmdAt = finalSteps.findIndex((step) => step.keyword === 'CMD');
    expect(finalSteps.indexOf(users[users.length - 1])).toBeLessThan(cmdAt);
  });

  it('has a HEALTHCHECK on /healthz', () => {
    const checks = finalSteps.filter((step) => step.keyword === 'HEALTHCHECK');
    expect(checks).toHaveLength(1);
    expect(checks[0].args).toMatch(/\bCMD\b/);
    expect(checks[0].args).toContain('/healthz');
  });

  it('the final stage gets only production dependencies', () => {
    const finalRuns = finalSteps.filter((step) => step.keyword === 'RUN').map((step) => step.args);
    const installsHere = finalRuns.filter((run) => /\bnpm (ci|install|i)\b/.test(run));
    const copiedModules = finalSteps.filter((step) => step.keyword === 'COPY' && /node_modules/.test(step.args));
    // The dependencies come from somewhere: installed here, or copied from an earlier stage (or both).
    expect(installsHere.length + copiedModules.length).toBeGreaterThan(0);

    for (const run of installsHere) expect(run).toMatch(/--omit=dev|--only=prod(uction)?|--production/);
    for (const copy of copiedModules) {
      // Copied from an earlier stage, where the development dependencies were pruned after the build.
      const from = /--from=(\S+)/.exec(copy.args)?.[1];
      expect(from).toBeDefined();
      const source = built.find((stage, index) => stage.name === from || String(index) === from);
      expect(source).toBeDefined();
      const sourceRuns = (source?.steps ?? []).filter((step) => step.keyword === 'RUN').map((step) => step.args);
      const pruned = sourceRuns.some((run) => /npm prune\b.*--(omit=dev|production)/.test(run));
      const installedForProduction = sourceRuns.some((run) =>
        /\bnpm (ci|install)\b.*(--omit=dev|--only=prod)/.test(run),
      );
      expect(pruned || installedForProduction).toBe(true);
    }
    // And no TypeScript sources or compiler in the image's own steps: nothing from src/ of the build
    // context; from the build stage only the console's templates, message catalogues and static files
    // (gathered there without any .ts), which the service reads at start-up.
    const copiedFromSrc = finalSteps
      .filter((step) => step.keyword === 'COPY' && !step.args.includes('--from='))
      .flatMap((step) => step.args.split(/\s+/).slice(0, -1))
      .filter((source) => /^(\.\/)?src(\/|$)/.test(source));
    expect(copiedFromSrc).toEqual([]);
    expect(
      finalSteps.some((step) => step.keyword === 'COPY' && /^--from=build \/app\/web-assets \.\/src$/.test(step.args)),
    ).toBe(true);
    const buildStage = built.find((stage) => stage.name === 'build');
    const gathered = /find src\/console (.*) -exec cp --parents/.exec(
      (buildStage?.steps ?? []).map((step) => step.args).join('\n'),
    );
    expect(gathered?.[1]).toMatch(/-name '\*\.eta' -o -name 'messages\.\*\.json' -o -path 'src\/console\/static\/\*'/);
    expect(finalSteps.some((step) => /NODE_ENV=production/.test(step.args))).toBe(true);
  });

  it('the final stage has the FreeRADIUS templates radius-config reads, and the folder it writes to', () => {
    expect(
      finalSteps.some(
        (step) => step.keyword === 'COPY' && /^deploy\/freeradius\s+\.\/deploy\/freeradius$/.test(step.args),
      ),
    ).toBe(true);
    expect(finalSteps.some((step) => step.keyword === 'RUN' && /\/app\/radius-config/.test(step.args))).toBe(true);
  });

  it('builds on a maintained Node LTS line (22, 24 or 26), not Node 20 (end of life in April 2026)', () => {
    const from = all.filter((step) => step.keyword === 'FROM').map((step) => step.args);
    const defaultVersion = /^ARG\s+NODE_VERSION=(\d+)/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))?.[1];
    for (const image of from) {
      const version = /^node:(\$\{NODE_VERSION\}|\d+)/.exec(image)?.[1];
      expect(version).toBeDefined();
      expect(['22', '24', '26']).toContain(version === '${NODE_VERSION}' ? defaultVersion : version);
    }
  });

  it('has scripts/ in place before npm ci, whose prepare script runs it', () => {
    const buildSteps = built[0].steps;
    const copyAt = buildSteps.findIndex((step) => step.keyword === 'COPY' && /^scripts\b/.test(step.args));
    const ciAt = buildSteps.findIndex((step) => step.keyword === 'RUN' && /\bnpm ci\b/.test(step.args));
    expect(copyAt).toBeGreaterThan(-1);
    expect(copyAt).toBeLessThan(ciAt);
  });

  it('starts the compiled service: CMD runs dist/src/main.js', () => {
    const cmds = finalSteps.filter((step) => step.keyword === 'CMD');
    expect(cmds.length).toBeGreaterThan(0);
    expect(commandLine(cmds[cmds.length - 1].args)).toMatch(/^node\s+(\.\/)?dist\/src\/main\.js$/);
    expect(finalSteps.some((step) => step.keyword === 'ENTRYPOINT')).toBe(false);
  });
});
