import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of a web surface's templates, catalogues and static files, src/<surface>/, whether the
 * service runs from src/ (tests) or dist/src/ (built; the files are not compiled, so they are read
 * from the sources): found from this module upwards by a file the surface always has (`marker`).
 */
export function surfaceDir(surface: string, marker: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    const candidate = join(dir, 'src', surface);
    if (existsSync(join(candidate, marker))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`The ${surface} templates (src/${surface}/${marker}) were not found beside the program.`);
}
