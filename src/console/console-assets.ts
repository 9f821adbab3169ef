import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The console's templates, message catalogues and static files are read from src/console/ whether
 * the service runs from src/ (tests) or dist/src/ (built): found from this module upwards.
 */
export function consoleAssetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    const candidate = join(dir, 'src', 'console');
    if (existsSync(join(candidate, 'views', 'layout.eta'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('The console templates (src/console/views/) were not found beside the program.');
}

/**
 * The files /admin/static/ serves, read once: the console's own (static/), htmx and the WebAuthn
 * browser library from their pinned packages.
 */
export function consoleStaticFiles(): Map<string, Buffer> {
  const dir = join(consoleAssetsDir(), 'static');
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(dir)) files.set(name, readFileSync(join(dir, name)));
  const require = createRequire(import.meta.url);
  files.set('htmx.min.js', readFileSync(require.resolve('htmx.org/dist/htmx.min.js')));
  // The package exports only its modules; its browser bundle sits beside them.
  const webauthn = join(
    dirname(require.resolve('@simplewebauthn/browser')),
    '..',
    'dist',
    'bundle',
    'index.umd.min.js',
  );
  files.set('webauthn.min.js', readFileSync(webauthn));
  return files;
}
