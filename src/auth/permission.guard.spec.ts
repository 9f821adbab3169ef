import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/errors/api-error.js';
import { Public } from '../common/public-route.js';
import type { ApiTokenService } from './api-token.service.js';
import { RequirePermission } from './auth.decorators.js';
import { AuthenticationGuard } from './authentication.guard.js';
import type { AuthenticatedRequest, AuthenticatedToken } from './authenticated-token.js';
import { PermissionGuard } from './permission.guard.js';
import type { Permission } from './permissions.js';
import type { RateLimiterService } from './rate-limit/rate-limiter.service.js';

class UsersController {
  @RequirePermission('read')
  list(): void {}

  @RequirePermission('write')
  create(): void {}

  @RequirePermission('delete')
  remove(): void {}

  @RequirePermission('any')
  status(): void {}

  undeclared(): void {}

  @Public()
  probe(): void {}
}

@Public()
class HealthController {
  live(): void {}
}

@RequirePermission('radius')
class RadiusController {
  authorize(): void {}
}

@RequirePermission('write')
class WriteController {
  inherited(): void {}

  @RequirePermission('read')
  overridden(): void {}
}

/** Stands in for ApiTokenService: knows a fixed set of token values. */
class FakeTokens {
  readonly asked: string[] = [];
  constructor(private readonly known: Record<string, AuthenticatedToken>) {}
  authenticate(value: string): Promise<AuthenticatedToken | null> {
    this.asked.push(value);
    return Promise.resolve(this.known[value] ?? null);
  }
}

function tokenWith(permissions: Permission[]): AuthenticatedToken {
  return {
    kind: 'token',
    id: `id-${permissions.join('-')}`,
    name: 'test',
    permissions,
    venueIds: null,
    expiresAt: null,
  };
}

const TOKENS = {
  'read-token': tokenWith(['read']),
  'write-token': tokenWith(['write']),
  'delete-token': tokenWith(['delete']),
  'read-write-token': tokenWith(['read', 'write']),
  'empty-token': tokenWith([]),
  'radius-token': tokenWith(['radius']),
};

function contextFor(controller: new () => object, method: string, headers: Record<string, string> = {}) {
  const request = { headers } as unknown as AuthenticatedRequest;
  const handler = (controller.prototype as Record<string, unknown>)[method] as () => void;
  const context = {
    getHandler: () => handler,
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({}) }),
  } as unknown as ExecutionContext;
  return { context, request };
}

describe('AuthenticationGuard then PermissionGuard', () => {
  let tokens: FakeTokens;
  let guard: { canActivate(context: ExecutionContext): Promise<boolean> };

  beforeEach(() => {
    tokens = new FakeTokens(TOKENS);
    const reflector = new Reflector();
    // Rate limits are off here; test/rate-limit.e2e-spec.ts covers the per-IP check before a lookup.
    const limiter = { enabled: () => false } as unknown as RateLimiterService;
    const authentication = new AuthenticationGuard(reflector, tokens as unknown as ApiTokenService, limiter);
    const authorization = new PermissionGuard(reflector);
    // The two global guards in their order (the rate limiter between them does not refuse here).
    guard = {
      canActivate: async (context) => (await authentication.canActivate(context)) && authorization.canActivate(context),
    };
  });

  async function outcome(controller: new () => object, method: string, authorization?: string) {
    const { context, request } = contextFor(controller, method, authorization === undefined ? {} : { authorization });
    try {
      return { allowed: await guard.canActivate(context), request };
    } catch (error) {
      return { error, request };
    }
  }

  function expectStatus(result: { error?: unknown }, status: number, message: string): void {
    expect(result.error).toBeInstanceOf(ApiError);
    const error = result.error as ApiError;
    expect(error.getStatus()).toBe(status);
    expect(error.body).toEqual({ success: false, message });
  }

  describe('public routes', () => {
    it('pass without a token and without asking for one (method decorator)', async () => {
      const result = await outcome(UsersController, 'probe');
      expect(result.allowed).toBe(true);
      expect(tokens.asked).toEqual([]);
    });

    it('pass without a token (class decorator)', async () => {
      expect((await outcome(HealthController, 'live')).allowed).toBe(true);
    });

    it('pass even with a garbled header', async () => {
      expect((await outcome(HealthController, 'live', 'garbage')).allowed).toBe(true);
    });
  });

  describe('401', () => {
    it.each([
      ['missing header', undefined],
      ['empty header', ''],
      ['scheme only', 'Bearer'],
      ['Basic scheme', 'Basic cmVhZC10b2tlbg=='],
      ['token without scheme', 'read-token'],
      ['two words', 'Bearer read-token extra'],
    ])('for a %s, without looking the token up', async (_case, header) => {
      const result = await outcome(UsersController, 'list', header);
      expectStatus(result, 401, 'Unauthorized');
      expect(tokens.asked).toEqual([]);
    });

    it('for a token the service does not know', async () => {
      const result = await outcome(UsersController, 'list', 'Bearer unknown-token');
      expectStatus(result, 401, 'Unauthorized');
      expect(tokens.asked).toEqual(['unknown-token']);
      expect(result.request.token).toBeUndefined();
    });

    it('comes before the permission check', async () => {
      expectStatus(await outcome(UsersController, 'remove', 'Bearer nope'), 401, 'Unauthorized');
    });
  });

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the %s scheme', async (scheme) => {
    const result = await outcome(UsersController, 'list', `${scheme} read-token`);
    expect(result.allowed).toBe(true);
    expect(tokens.asked).toEqual(['read-token']);
  });

  it('attaches the authenticated token to the request', async () => {
    const result = await outcome(UsersController, 'list', 'Bearer write-token');
    expect(result.allowed).toBe(true);
    expect(result.request.token).toBe(TOKENS['write-token']);
  });

  describe('permission levels', () => {
    const matrix: Array<[keyof typeof TOKENS, string, boolean]> = [
      ['read-token', 'list', true],
      ['read-token', 'create', false],
      ['read-token', 'remove', false],
      ['write-token', 'list', true],
      ['write-token', 'create', true],
      ['write-token', 'remove', false],
      ['read-write-token', 'create', true],
      ['read-write-token', 'remove', false],
      ['delete-token', 'list', true],
      ['delete-token', 'create', true],
      ['delete-token', 'remove', true],
    ];
    it.each(matrix)('%s on the %s route: allowed %s', async (token, method, allowed) => {
      const result = await outcome(UsersController, method, `Bearer ${token}`);
      if (allowed) expect(result.allowed).toBe(true);
      else expectStatus(result, 403, 'Forbidden');
    });

    it("'any' lets every valid token through", async () => {
      for (const token of ['read-token', 'write-token', 'delete-token']) {
        expect((await outcome(UsersController, 'status', `Bearer ${token}`)).allowed).toBe(true);
      }
    });

    it("'any' still needs a valid token", async () => {
      expectStatus(await outcome(UsersController, 'status'), 401, 'Unauthorized');
    });

    it('a token that holds no permission is refused even where any token will do', async () => {
      expectStatus(await outcome(UsersController, 'status', 'Bearer empty-token'), 403, 'Forbidden');
    });

    it('a route without a declared level needs delete', async () => {
      expectStatus(await outcome(UsersController, 'undeclared', 'Bearer read-token'), 403, 'Forbidden');
      expectStatus(await outcome(UsersController, 'undeclared', 'Bearer write-token'), 403, 'Forbidden');
      expect((await outcome(UsersController, 'undeclared', 'Bearer delete-token')).allowed).toBe(true);
    });

    it('a class level applies to its methods, and a method level overrides it', async () => {
      expectStatus(await outcome(WriteController, 'inherited', 'Bearer read-token'), 403, 'Forbidden');
      expect((await outcome(WriteController, 'inherited', 'Bearer write-token')).allowed).toBe(true);
      expect((await outcome(WriteController, 'overridden', 'Bearer read-token')).allowed).toBe(true);
    });
  });

  describe('the radius permission', () => {
    it('opens a radius route, which no API level opens', async () => {
      expect((await outcome(RadiusController, 'authorize', 'Bearer radius-token')).allowed).toBe(true);
      for (const token of ['read-token', 'write-token', 'delete-token', 'read-write-token', 'empty-token']) {
        expectStatus(await outcome(RadiusController, 'authorize', `Bearer ${token}`), 403, 'Forbidden');
      }
    });

    it('opens no other route: read, write, delete, any-token and undeclared routes answer 403', async () => {
      for (const method of ['list', 'create', 'remove', 'status', 'undeclared']) {
        expectStatus(await outcome(UsersController, method, 'Bearer radius-token'), 403, 'Forbidden');
      }
      expectStatus(await outcome(WriteController, 'overridden', 'Bearer radius-token'), 403, 'Forbidden');
    });

    it('still needs a valid token first: 401 before 403', async () => {
      expectStatus(await outcome(RadiusController, 'authorize'), 401, 'Unauthorized');
    });
  });
});
