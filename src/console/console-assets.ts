import { existsSync } from 'node:fs';
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
