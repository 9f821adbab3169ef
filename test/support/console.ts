import { Clock } from '../../src/common/clock.js';
import type TestAgent from 'supertest/lib/agent.js';
import type { Response } from 'supertest';
import type { Permission } from '../../src/auth/permissions.js';
import { newId } from '../../src/common/ids.js';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../src/config/configuration.js';
import { base32Decode, base32Encode, newTotpSeed, totpCode as codeOf } from '../../src/operators/totp.js';
import { sealTotpSeed } from '../../src/operators/totp-seal.js';
import { hash } from '@node-rs/argon2';
import { ARGON2ID_OPTIONS } from '../../src/common/passwords/argon2-threads.js';
import { OperatorEntity } from '../../src/operators/entities/operator.entity.js';
import { newFormToken } from '../../src/operators/form-tokens.js';
import type { TestApp } from './test-app.js';

export interface OperatorOptions {
  email?: string;
  name?: string;
  password?: string;
  admin?: boolean;
  mustChangePassword?: boolean;
  permissions?: Permission[];
  venueIds?: string[] | null;
  /** With mustChangePassword: how long from now the one-time password works (negative: expired). */
  oneTimePasswordHours?: number;
  /** Enrolled in two-factor sign-in with this seed (base32), sealed with the app's SECRETS_KEY. */
  totpSecret?: string;
}

export const OPERATOR_PASSWORD = 'correct horse battery staple';
let counter = 0;

/** Stores an operator directly in the database (hashed with the service's argon2id settings). */
export async function givenOperator(testApp: TestApp, options: OperatorOptions = {}): Promise<OperatorEntity> {
  counter += 1;
  const now = new Date();
  const email = options.email ?? `operator${counter}@venue.example`;
  const operator: OperatorEntity = {
    id: newId(),
    email,
    emailKey: email.toLowerCase(),
    name: options.name ?? `Operator ${counter}`,
    passwordHash: await hash(options.password ?? OPERATOR_PASSWORD, ARGON2ID_OPTIONS),
    mustChangePassword: options.mustChangePassword ?? false,
    oneTimePasswordExpiresAt:
      options.mustChangePassword === true
        ? new Date(testApp.app.get(Clock).now().getTime() + (options.oneTimePasswordHours ?? 72) * 3_600_000)
        : null,
    permissions: options.permissions ?? ['read'],
    admin: options.admin ?? false,
    venueIds: options.venueIds ?? null,
    status: 'active',
    rightsVersion: 1,
    totpSecret: null,
    totpEnrolledAt: options.totpSecret === undefined ? null : now,
    totpLastStep: null,
    timeZone: null,
    createdAt: now,
    updatedAt: now,
    lastSignInAt: null,
  };
  if (options.totpSecret !== undefined) {
    const key = testApp.app.get(ConfigService<AppConfig, true>).get('secretsKey', { infer: true });
    operator.totpSecret = sealTotpSeed(base32Decode(options.totpSecret), operator.id, key);
  }
  await testApp.dataSource.getRepository(OperatorEntity).insert(operator);
  return operator;
}

/** The console session cookie a response set ("name=value"), if any. */
export function sessionCookie(response: Response): string | undefined {
  const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const set = cookies.find((cookie) => /^(__Host-)?hotspot_console=[^;]+/.test(cookie));
  return set?.split(';')[0];
}

/** The one-time tokens of a page's forms, by the form's action (as the browser reads the attribute). */
export function formTokensOf(html: string): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const match of html.matchAll(
    /<form method="post" action="([^"]*)"[^>]*>\s*<input type="hidden" name="formToken" value="([^"]*)">/g,
  )) {
    tokens.set(match[1].replace(/&amp;/g, '&'), match[2]);
  }
  return tokens;
}

/**
 * A browser-like console client: keeps its session cookie, sends Fetch Metadata as a browser does,
 * and sends a form's one-time token as the browser would: the token of that form on the last page it
 * got (once: a sent token is forgotten), or, for a form posted without opening its page first, a new
 * token of its session as that page would have carried. A `formToken` given in the form is sent as it is.
 */
export class ConsoleBrowser {
  cookie: string | undefined;
  private formTokens = new Map<string, string>();

  constructor(private readonly http: () => TestAgent) {}

  async get(path: string): Promise<Response> {
    const request = this.http().get(path);
    if (this.cookie !== undefined) request.set('Cookie', this.cookie);
    return this.remember(await request);
  }

  async post(path: string, form: Record<string, string>): Promise<Response> {
    const request = this.http()
      .post(path)
      .type('form')
      .set('Sec-Fetch-Site', 'same-origin')
      .send(this.withToken(path, form));
    if (this.cookie !== undefined) request.set('Cookie', this.cookie);
    return this.remember(await request);
  }

  /** The page a 303 sends the browser to (Post/Redirect/Get); the response itself when it is no redirect. */
  async follow(response: Response): Promise<Response> {
    if (response.status !== 303) return response;
    return this.get(response.headers.location);
  }

  /** A new one-time token of this client's session, as a page of it would carry (none before sign-in). */
  newFormToken(): string {
    const id = this.cookie?.split('=')[1];
    return id === undefined ? '' : newFormToken(id);
  }

  private withToken(path: string, form: Record<string, string>): Record<string, string> {
    if ('formToken' in form) return form;
    const token = this.formTokens.get(path) ?? this.newFormToken();
    this.formTokens.delete(path);
    return token === '' ? form : { ...form, formToken: token };
  }

  private remember(response: Response): Response {
    const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    const set = cookies.find((cookie) => /^(__Host-)?hotspot_console=/.test(cookie));
    if (set !== undefined) {
      const pair = set.split(';')[0];
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    if (/html/.test(String(response.headers['content-type'] ?? ''))) this.formTokens = formTokensOf(response.text);
    return response;
  }
}

/** A new TOTP seed in base32, as the enrolment page shows one. */
export function newTotpSecret(): string {
  return base32Encode(newTotpSeed());
}

/** The TOTP code of `secret` (base32, as the enrolment page shows it) at `at`. */
export function totpCode(secret: string, at: Date): string {
  return codeOf(base32Decode(secret), at);
}

/** Text of the first element with this class in a page. */
export function pageText(html: string, className: string): string {
  const match = new RegExp(`class="${className}"[^>]*>([^<]*)<`).exec(html);
  if (match === null) throw new Error(`no .${className} in the page`);
  return match[1];
}

/** Recovery codes listed on the page that shows them. */
export function recoveryCodesOf(html: string): string[] {
  return [...html.matchAll(/<li><code>([0-9A-Z-]+)<\/code><\/li>/g)].map((match) => match[1]);
}

export interface SignedInConsole {
  console: ConsoleBrowser;
  operator: OperatorEntity;
  /** The TOTP seed the operator enrolled with while signing in (base32); null when the console asked for none. */
  totpSecret: string | null;
}

/**
 * An operator stored with `options` and signed in through the console's own forms: email and
 * password, and the two-factor enrolment when the console requires it first (OPERATORS_REQUIRE_2FA,
 * ADMIN_REQUIRE_2FA).
 */
export async function signInConsole(testApp: TestApp, options: OperatorOptions = {}): Promise<SignedInConsole> {
  const operator = await givenOperator(testApp, options);
  const console = new ConsoleBrowser(() => testApp.http);
  const login = await console.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
  if (login.status !== 303) throw new Error(`sign-in answered ${login.status}`);
  if ((await console.get('/admin')).headers.location !== '/admin/two-factor') {
    return { console, operator, totpSecret: null };
  }
  const enrolment = await console.get('/admin/two-factor');
  const totpSecret = pageText(enrolment.text, 'secret');
  const confirmed = await console.post('/admin/two-factor', {
    code: totpCode(totpSecret, testApp.app.get(Clock).now()),
  });
  if (confirmed.status !== 303) throw new Error(`enrolment answered ${confirmed.status}`);
  return { console, operator, totpSecret };
}
