/** The console's pure rules: where a form may send the browser back to. */

/**
 * Where a form may send the browser back to (the screen the language was switched on): a path of the
 * console's own, never another site (`//host`, a backslash, a scheme) and never a long one; null otherwise.
 */
export function consoleReturnPath(value: string): string | null {
  if (value.length > 512) return null;
  if (!/^\/admin(?:[/?]|$)/.test(value)) return null;
  if (/[\\\s]|\/\//.test(value)) return null;
  return value;
}
