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

/**
 * The page of recovery codes a POST made (`resultId`: the result it left for its session): My
 * account's new codes and the enrolment's both lead there.
 */
export function recoveryCodesPath(resultId: string): string {
  return `${CONSOLE_PREFIX}/account/recovery-codes/${encodeURIComponent(resultId)}`;
}
