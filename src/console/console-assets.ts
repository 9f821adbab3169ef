import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { surfaceDir } from '../web/assets.js';

/** The console's folder: its screens' templates and catalogues, and static/. */
export function consoleAssetsDir(): string {
  return surfaceDir('console', 'shell/layout.eta');
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
