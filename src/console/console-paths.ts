/** Where the console is mounted; everything under it is the console's, nothing of the v1 API. */
export const CONSOLE_PREFIX = '/admin';

export function isConsolePath(path: string): boolean {
  return path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);
}
