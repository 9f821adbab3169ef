/**
 * The most common passwords (lower-cased) of at least PASSWORD_MIN_LENGTH characters, which a new
 * operator password may not be.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '1234567890',
  'qwertyuiop',
  'password123',
  '1q2w3e4r5t',
  'iloveyou123',
  '0987654321',
  'password1234',
  'qwerty12345',
  '1234567891',
  '12345678910',
]);
