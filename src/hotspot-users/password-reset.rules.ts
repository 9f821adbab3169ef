import type { FieldError } from '../common/errors/api-error.js';
import { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import { generatedPassword, type SessionEnding } from './hotspot-user.rules.js';

/** The rules of a password reset (POST /hotspot-users/:id/password), as pure functions. */

/** The new password: one the caller typed, or one the service generates and answers once. */
export type NewPassword = { kind: 'typed'; password: string } | { kind: 'generated' };

export interface PasswordResetInput {
  newPassword: NewPassword;
  /** End the user's running sessions now, as a block does; otherwise they run on. */
  endSessions: boolean;
}

/** With endSessions, as a block: the job is written even when no session was active (the network side is told). */
export const PASSWORD_RESET_ENDING = {
  reason: 'password-reset',
  jobWithoutSessions: true,
} as const satisfies SessionEnding;

/** The body field a reset's password came in: what a 400 about it names. */
export function passwordField(newPassword: NewPassword): 'password' | 'generate' {
  return newPassword.kind === 'typed' ? 'password' : 'generate';
}

/**
 * What the stored user allows, checked on the locked row after the venue rules and If-Match (as a
 * PUT checks it): an expired user cannot be edited (409, as PUT), and only a username_password user
 * has a password (400 naming the field sent, as create refuses a guest's password).
 */
export function passwordResetRefusal(
  user: Pick<HotspotUserEntity, 'status' | 'loginMethod'>,
  newPassword: NewPassword,
): { kind: 'expired' } | { kind: 'invalid'; errors: FieldError[] } | null {
  if (user.status === 'expired') return { kind: 'expired' };
  if (user.loginMethod !== 'username_password') {
    const field = passwordField(newPassword);
    return { kind: 'invalid', errors: [{ field, message: `${field} applies to username_password users only` }] };
  }
  return null;
}

/** The user with its new hash, and the columns to write: updatedAt and version move, as on every change. */
export function withNewPassword(
  user: HotspotUserEntity,
  passwordHash: string,
  now: Date,
): { user: HotspotUserEntity; changes: Partial<HotspotUserEntity> } {
  const changes = { passwordHash, updatedAt: now, version: user.version + 1 } satisfies Partial<HotspotUserEntity>;
  return { user: Object.assign(new HotspotUserEntity(), user, changes), changes };
}

/** A generated password from `random` (called again in the rare case the bytes ran out). */
export function newGeneratedPassword(random: () => Uint8Array): string {
  for (;;) {
    const password = generatedPassword(random());
    if (password !== null) return password;
  }
}
