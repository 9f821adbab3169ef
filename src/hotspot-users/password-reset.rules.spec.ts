import { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import { GENERATED_PASSWORD_RANDOM_BYTES } from './hotspot-user.rules.js';
import { newGeneratedPassword, passwordResetRefusal, withNewPassword } from './password-reset.rules.js';

const typed = { kind: 'typed', password: 'sunrise42' } as const;
const generated = { kind: 'generated' } as const;

function user(fields: Partial<HotspotUserEntity>): HotspotUserEntity {
  return Object.assign(new HotspotUserEntity(), {
    id: 'u1',
    status: 'active',
    loginMethod: 'username_password',
    passwordHash: 'old',
    version: 3,
    updatedAt: new Date('2030-01-01T00:00:00Z'),
    ...fields,
  });
}

describe('passwordResetRefusal', () => {
  it('allows an active or blocked username_password user', () => {
    expect(passwordResetRefusal(user({}), typed)).toBeNull();
    expect(passwordResetRefusal(user({ status: 'blocked' }), generated)).toBeNull();
  });

  it('refuses an expired user as PUT does (409), whatever its login method', () => {
    expect(passwordResetRefusal(user({ status: 'expired' }), typed)).toEqual({ kind: 'expired' });
    expect(passwordResetRefusal(user({ status: 'expired', loginMethod: 'guest' }), typed)).toEqual({ kind: 'expired' });
  });

  it('refuses a user without a password with a 400 naming the field sent', () => {
    expect(passwordResetRefusal(user({ loginMethod: 'guest' }), typed)).toEqual({
      kind: 'invalid',
      errors: [{ field: 'password', message: 'password applies to username_password users only' }],
    });
    expect(passwordResetRefusal(user({ loginMethod: 'social' }), generated)).toEqual({
      kind: 'invalid',
      errors: [{ field: 'generate', message: 'generate applies to username_password users only' }],
    });
  });
});

describe('withNewPassword', () => {
  it('writes the hash, updatedAt and the next version, and nothing else', () => {
    const now = new Date('2030-02-01T00:00:00Z');
    const { user: after, changes } = withNewPassword(user({ name: 'Ayşe' }), 'new', now);
    expect(changes).toEqual({ passwordHash: 'new', updatedAt: now, version: 4 });
    expect(after).toMatchObject({ name: 'Ayşe', passwordHash: 'new', version: 4, updatedAt: now });
  });
});

describe('newGeneratedPassword', () => {
  it('draws again when the bytes ran out', () => {
    let calls = 0;
    const password = newGeneratedPassword(() => {
      calls += 1;
      return calls === 1 ? new Uint8Array(GENERATED_PASSWORD_RANDOM_BYTES).fill(255) : new Uint8Array(32).fill(2);
    });
    expect(calls).toBe(2);
    expect(password).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  });
});
