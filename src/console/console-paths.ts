/** Where the console is mounted; everything under it is the console's, nothing of the v1 API. */
export const CONSOLE_PREFIX = '/admin';

/**
 * Whether `path` is the console's. In any letter case: Express matches routes regardless of case, so
 * /ADMIN/users is a console page too and must get the console's headers and form parser.
 */
export function isConsolePath(path: string): boolean {
  const start = path.slice(0, CONSOLE_PREFIX.length + 1).toLowerCase();
  return start === CONSOLE_PREFIX || start === `${CONSOLE_PREFIX}/`;
}
