/** A passkey's name: what the operator typed, trimmed, 1 to 100 characters without control characters; null otherwise. */
export function passkeyName(typed: string): string | null {
  const name = typed.trim();
  const length = [...name].length;
  // eslint-disable-next-line no-control-regex
  if (length < 1 || length > 100 || /[\u0000-\u001f\u007f]/.test(name)) return null;
  return name;
}

/** The longest answer of a passkey ceremony read: a browser's is a few kilobytes. */
export const CEREMONY_RESPONSE_MAX_LENGTH = 16_384;

/**
 * A ceremony answer as the browser posted it (JSON in a form field): an object with a string `id`
 * and a `response` object, or null for anything else.
 */
export function parsedCeremonyResponse<T>(posted: string): T | null {
  if (posted === '' || posted.length > CEREMONY_RESPONSE_MAX_LENGTH) return null;
  let value: unknown;
  try {
    value = JSON.parse(posted);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { id, response } = value as { id?: unknown; response?: unknown };
  if (typeof id !== 'string' || typeof response !== 'object' || response === null) return null;
  return value as T;
}
