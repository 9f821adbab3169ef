import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import type { CliRuntime } from '../src/cli/command.js';
import { buildProgram } from '../src/cli/program.js';
import { checkoutCommit, ensureBuilt, ROOT } from './support/build.js';

/**
 * The command line runs from the build: the npm scripts start the compiled code without compiling
 * it first, `npm install`/`npm ci` build once (prepare), and a missing or stale build stops the
 * command with a message saying what to run, instead of running old code. Every command takes
 * --json and --help.
 */

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

describe('npm scripts', () => {
  it.each(['token', 'session', 'jobs', 'cli', 'worker'])('%s runs the build without compiling', (name) => {
    expect(scripts[name]).toMatch(/^node --import \.\/scripts\/build-state\.mjs dist\/src\/(cli\/main|worker)\.js\b/);
    expect(scripts[name]).not.toMatch(/npm run build|tsc|&&/);
  });

  it('npm install and npm ci build (prepare); npm start compiles only what changed', () => {
    expect(scripts.prepare).toBe('node scripts/build-state.mjs --build');
    expect(scripts.prestart).toBe('node scripts/build-state.mjs --build');
  });
});

describe('every command of hotspot', () => {
  function leaves(command: Command): Command[] {
    return command.commands.length === 0 ? [command] : command.commands.flatMap(leaves);
  }
  const sink = { write: () => true };
  // Only the program's shape is read: no command runs, so the runtime is never used.
  const runtime: CliRuntime = { now: () => new Date(), use: () => Promise.reject(new Error('not run')) };
  const program = buildProgram({ stdout: sink, stderr: sink }, runtime);

  it.each(leaves(program).map((command) => [`${command.parent?.name()} ${command.name()}`, command] as const))(
    '%s takes --json and --help',
    (_name, command) => {
      const flags = command.options.map((option) => option.long);
      expect(flags).toContain('--json');
      expect(command.helpInformation()).toContain('--help');
    },
  );
});

describe('hotspot --version', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

  it('prints the package version and the commit the build was made from', () => {
    ensureBuilt([join(ROOT, 'dist/src/cli/main.js')]);
    for (const flag of ['--version', '-V']) {
      const run = spawnSync(process.execPath, ['dist/src/cli/main.js', flag], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, SERVICE_COMMIT: '' },
      });
      expect(run.status).toBe(0);
      const commit = checkoutCommit();
      expect(run.stdout).toBe(`${version}${commit === null ? '' : `+${commit.slice(0, 12)}`}\n`);
      expect(run.stderr).toBe('');
    }
  });

  it('SERVICE_COMMIT (set by the image build) names the commit; a value that is no commit hash is ignored', () => {
    ensureBuilt([join(ROOT, 'dist/src/cli/main.js')]);
    const run = (commit: string) =>
      spawnSync(process.execPath, ['dist/src/cli/main.js', '--version'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, SERVICE_COMMIT: commit },
      }).stdout;
    expect(run('ABCDEF0123456789abcdef0123456789abcdef01')).toBe(`${version}+abcdef012345\n`);
    expect(run('$(rm -rf /)')).toMatch(new RegExp(`^${version.replace(/\./g, '\\.')}(\\+[0-9a-f]{12})?\n$`));
  });
});

describe('scripts/build-state.mjs', () => {
  let dir: string;
  const past = new Date(Date.now() - 60_000);
  const now = new Date();

  /** A project with a source, and an entry point in dist/ that says it ran. */
  function project(): void {
    dir = mkdtempSync(join(tmpdir(), 'hotspot-build-state-'));
    const files: Record<string, string> = {
      'src/main.ts': 'export {};\n',
      'src/worker.ts': 'export {};\n',
      'src/cli/main.ts': 'export {};\n',
      'migrations/index.ts': 'export {};\n',
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'NodeNext', outDir: 'dist', rootDir: '.', types: [] },
      }),
      'tsconfig.build.json': JSON.stringify({
        extends: './tsconfig.json',
        include: ['src/**/*.ts', 'migrations/**/*.ts'],
      }),
      'dist/src/cli/main.js': "process.stdout.write('ran\\n');\n",
      'package.json': '{"type":"module"}\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
      utimesSync(join(dir, path), past, past);
    }
    utimesSync(join(dir, 'dist/src/cli/main.js'), now, now);
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(join(ROOT, 'scripts/build-state.mjs'), join(dir, 'scripts/build-state.mjs'));
    copyFileSync(join(ROOT, 'scripts/build-info.mjs'), join(dir, 'scripts/build-info.mjs'));
  }

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const runCli = () =>
    spawnSync(process.execPath, ['--import', './scripts/build-state.mjs', 'dist/src/cli/main.js', 'token', 'list'], {
      cwd: dir,
      encoding: 'utf8',
    });

  it('runs an entry point built after every source', () => {
    project();
    const run = runCli();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ran\n');
    expect(run.status).toBe(0);
  });

  it('stops with a message when a source changed after the build', () => {
    project();
    utimesSync(join(dir, 'src/cli/main.ts'), new Date(Date.now() + 1000), new Date(Date.now() + 1000));
    const run = runCli();
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('src/cli/main.ts changed after the last build');
    expect(run.stderr).toContain('Run `npm run build` first');
  });

  it('stops with a message when there is no build', () => {
    project();
    rmSync(join(dir, 'dist'), { recursive: true });
    const run = runCli();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('there is no build (dist/src/cli/main.js is missing)');
  });

  it('leaves a copy without sources alone (an installed build)', () => {
    project();
    rmSync(join(dir, 'src'), { recursive: true });
    utimesSync(join(dir, 'migrations/index.ts'), new Date(Date.now() + 1000), new Date(Date.now() + 1000));
    expect(runCli().stdout).toBe('ran\n');
  });

  it('--build compiles when the build is missing, and then not again', () => {
    project();
    rmSync(join(dir, 'dist'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const build = () =>
      spawnSync(process.execPath, ['scripts/build-state.mjs', '--build'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const first = build();
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('Compiling the TypeScript sources to dist/ (there is no build');
    expect(runCli().status).toBe(0);
    // Outside a git checkout the build knows no commit.
    expect(JSON.parse(readFileSync(join(dir, 'dist/build-info.json'), 'utf8'))).toEqual({ commit: null });
    const second = build();
    expect(second.status).toBe(0);
    expect(second.stderr).toBe('');
  }, 60_000);
});
