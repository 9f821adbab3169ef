import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { ConfigService } from '@nestjs/config';
import type { DataSource, Logger as TypeOrmLogger } from 'typeorm';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { initializeDataSource } from '../database/migrations.js';
import { DatabaseService } from '../database/database.service.js';
import { ApiTokenRepository } from './api-token.repository.js';
import { ApiTokenService, TOKEN_REVISION_INTERVAL_MS } from './api-token.service.js';
import { UNKNOWN_TOKEN_TTL_MS } from './token-cache.js';
import { LAST_USED_WRITE_INTERVAL_MS } from './token-rules.js';
import { hashTokenValue } from './token-value.js';

class FakeClock extends Clock {
  private current = new Date('2030-01-01T00:00:00.000Z');
  override now(): Date {
    return new Date(this.current);
  }
  set(iso: string): void {
    this.current = new Date(iso);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Records every SQL statement the DataSource runs. */
class QueryRecorder implements TypeOrmLogger {
  queries: string[] = [];
  logQuery(query: string): void {
    this.queries.push(query);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
  /** Statements run since the last call, without transaction bookkeeping. */
  take(): string[] {
    const taken = this.queries.filter((q) => !/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(q));
    this.queries = [];
    return taken;
  }
}

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  token_hash: string;
  permissions: string;
  venue_ids: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
}

const CACHE_TTL_MS = 10_000;
const REVISION_QUERY = /^SELECT COUNT\(\*\)/;

/** Lookups of one token by its hash. */
function lookups(queries: string[]): string[] {
  return queries.filter((q) => /^SELECT/i.test(q) && q.includes('token_hash'));
}

describe('ApiTokenService (on an in-memory SQLite database)', () => {
  let dataSource: DataSource;
  let database: DatabaseService;
  let clock: FakeClock;
  let recorder: QueryRecorder;
  let service: ApiTokenService;

  function serviceWithCacheTtl(ttlMs: number): ApiTokenService {
    const config = { get: (key: keyof AppConfig) => (key === 'tokenCacheTtlMs' ? ttlMs : undefined) };
    return new ApiTokenService(
      database,
      new ApiTokenRepository(),
      clock,
      new AuditService(database, new AuditRepository(), clock),
      config as unknown as ConfigService<AppConfig, true>,
    );
  }

  /** Reads the row after any queued fire-and-forget write (DatabaseService runs SQLite work in order). */
  async function row(id: string): Promise<TokenRow> {
    const rows = await database.run((em) => em.query<TokenRow[]>('SELECT * FROM api_tokens WHERE id = ?', [id]));
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  async function settle(): Promise<void> {
    await database.run(() => Promise.resolve());
  }

  beforeEach(async () => {
    recorder = new QueryRecorder();
    dataSource = await initializeDataSource({
      ...buildDataSourceOptions({ type: 'sqlite', path: ':memory:' }, { migrationsRun: true }),
      logger: recorder,
    });
    database = new DatabaseService(dataSource);
    clock = new FakeClock();
    service = serviceWithCacheTtl(CACHE_TTL_MS);
    recorder.take();
  });

  afterEach(async () => {
    await dataSource.destroy();
  });

  describe('create', () => {
    it('returns a fresh hsp_ value once and stores only its SHA-256', async () => {
      const { record, value } = await service.create({
        name: 'portal',
        permissions: ['read', 'write'],
        venueIds: ['A', 'B'],
        expiresAt: new Date('2031-01-01T00:00:00.000Z'),
      });
      expect(value).toMatch(/^hsp_[A-Za-z0-9_-]{43}$/);
      const stored = await row(record.id);
      expect(stored.token_hash).toBe(hashTokenValue(value));
      expect(stored.prefix).toBe(value.slice(0, 10));
      expect(stored.name).toBe('portal');
      expect(JSON.parse(stored.permissions)).toEqual(['read', 'write']);
      expect(JSON.parse(stored.venue_ids!)).toEqual(['A', 'B']);
      expect(new Date(`${stored.created_at}Z`).toISOString()).toBe('2030-01-01T00:00:00.000Z');
      expect(stored.expires_at).toContain('2031-01-01');
      expect(stored.last_used_at).toBeNull();
      expect(stored.revoked_at).toBeNull();
      // No column holds the secret part of the value.
      for (const column of Object.values(stored)) {
        expect(String(column)).not.toContain(value);
        expect(String(column)).not.toContain(value.slice(4, 12));
      }
    });

    it('stores permissions in canonical order and null venues as null', async () => {
      const { record } = await service.create({
        name: 'admin',
        permissions: ['delete', 'read'],
        venueIds: null,
        expiresAt: null,
      });
      const stored = await row(record.id);
      expect(JSON.parse(stored.permissions)).toEqual(['read', 'delete']);
      expect(stored.venue_ids).toBeNull();
      expect(stored.expires_at).toBeNull();
    });

    it('stores a given value (BOOTSTRAP_TOKEN) by hash, showing none of its characters', async () => {
      const value = 'operator-chosen-bootstrap-secret-0123456789';
      const created = await service.create(
        { name: 'bootstrap', permissions: ['delete'], venueIds: null, expiresAt: null },
        value,
      );
      expect(created.value).toBe(value);
      const stored = await row(created.record.id);
      expect(stored.token_hash).toBe(hashTokenValue(value));
      expect(stored.prefix).toBe('');
      expect(await service.authenticate(value)).toMatchObject({ id: created.record.id, permissions: ['delete'] });
    });

    it('refuses a second token with the same value', async () => {
      const input = { name: 'x', permissions: ['read' as const], venueIds: null, expiresAt: null };
      await service.create(input, 'same-value-0123456789-0123456789-abc');
      await expect(service.create(input, 'same-value-0123456789-0123456789-abc')).rejects.toThrow();
      expect(await service.count()).toBe(1);
    });

    it('stores a radius token, and refuses radius combined with an API level without storing anything', async () => {
      const { record } = await service.create({
        name: 'freeradius',
        permissions: ['radius'],
        venueIds: null,
        expiresAt: null,
      });
      expect(JSON.parse((await row(record.id)).permissions)).toEqual(['radius']);
      await expect(
        service.create({ name: 'mixed', permissions: ['read', 'radius'], venueIds: null, expiresAt: null }),
      ).rejects.toThrow('radius cannot be combined with read, write or delete');
      expect(await service.count()).toBe(1);
    });
  });

  describe('list and count', () => {
    it('list every token, oldest first, with no token value', async () => {
      expect(await service.list()).toEqual([]);
      expect(await service.count()).toBe(0);
      const first = await service.create({ name: 'first', permissions: ['read'], venueIds: null, expiresAt: null });
      clock.advance(1000);
      const second = await service.create({ name: 'second', permissions: ['write'], venueIds: ['V'], expiresAt: null });
      const listed = await service.list();
      expect(listed.map((t) => t.name)).toEqual(['first', 'second']);
      expect(listed[1]).toMatchObject({ id: second.record.id, permissions: ['write'], venueIds: ['V'] });
      expect(JSON.stringify(listed)).not.toContain(first.value);
      expect(JSON.stringify(listed)).not.toContain(second.value);
      expect(await service.count()).toBe(2);
    });
  });

  describe('revoke', () => {
    it('by id marks the token revoked at the current time', async () => {
      const { record, value } = await service.create({
        name: 't',
        permissions: ['read'],
        venueIds: null,
        expiresAt: null,
      });
      clock.set('2030-02-01T10:00:00.000Z');
      const revoked = await service.revoke(record.id);
      expect(revoked?.id).toBe(record.id);
      expect((await row(record.id)).revoked_at).toContain('2030-02-01');
      expect(await service.authenticate(value)).toBeNull();
    });

    it('by value works too', async () => {
      const { record, value } = await service.create({
        name: 't',
        permissions: ['read'],
        venueIds: null,
        expiresAt: null,
      });
      expect((await service.revoke(value))?.id).toBe(record.id);
      expect((await row(record.id)).revoked_at).not.toBeNull();
    });

    it('returns null and changes nothing when nothing matches', async () => {
      const { record } = await service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      expect(await service.revoke('no-such-token')).toBeNull();
      expect((await row(record.id)).revoked_at).toBeNull();
    });

    it('keeps the first revocation time when revoked again', async () => {
      const { record } = await service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      clock.set('2030-03-01T00:00:00.000Z');
      await service.revoke(record.id);
      clock.set('2030-04-01T00:00:00.000Z');
      const again = await service.revoke(record.id);
      expect(again?.revokedAt?.toISOString()).toBe('2030-03-01T00:00:00.000Z');
      expect((await row(record.id)).revoked_at).toContain('2030-03-01');
    });

    it('takes effect at once on a token that is in the cache', async () => {
      const { record, value } = await service.create({
        name: 't',
        permissions: ['read'],
        venueIds: null,
        expiresAt: null,
      });
      expect(await service.authenticate(value)).not.toBeNull();
      await service.revoke(record.id);
      expect(await service.authenticate(value)).toBeNull();
    });
  });

  describe('authenticate', () => {
    it('returns who the caller is, without the value', async () => {
      const expiresAt = new Date('2030-06-01T00:00:00.000Z');
      const { record, value } = await service.create({
        name: 'venue A',
        permissions: ['write'],
        venueIds: ['A'],
        expiresAt,
      });
      const token = await service.authenticate(value);
      expect(token).toEqual({
        kind: 'token',
        id: record.id,
        name: 'venue A',
        permissions: ['write'],
        venueIds: ['A'],
        expiresAt,
      });
    });

    it('returns null for an unknown value', async () => {
      await service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      expect(await service.authenticate('hsp_unknown')).toBeNull();
    });

    it('returns null for a token past its expiry, even while it is cached', async () => {
      const { value } = await service.create({
        name: 't',
        permissions: ['read'],
        venueIds: null,
        expiresAt: new Date('2030-01-01T00:00:05.000Z'),
      });
      expect(await service.authenticate(value)).not.toBeNull();
      clock.set('2030-01-01T00:00:05.000Z');
      expect(await service.authenticate(value)).toBeNull();
    });

    it('returns null for a token that expired before it was ever used', async () => {
      const { value } = await service.create({
        name: 't',
        permissions: ['read'],
        venueIds: null,
        expiresAt: new Date('2029-12-31T23:59:59.999Z'),
      });
      expect(await service.authenticate(value)).toBeNull();
    });

    it('answers from the cache without a lookup within the time to live, and looks the token up again after it', async () => {
      const { value } = await service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      await service.authenticate(value);
      await settle();
      expect(lookups(recorder.take())).toHaveLength(1);

      clock.advance(CACHE_TTL_MS - 1);
      expect(await service.authenticate(value)).not.toBeNull();
      await settle();
      // Only the revision check: nothing was created or revoked, so the cached token stands.
      expect(recorder.take()).toEqual([expect.stringMatching(REVISION_QUERY)]);

      clock.advance(1);
      expect(await service.authenticate(value)).not.toBeNull();
      await settle();
      expect(lookups(recorder.take())).toHaveLength(1);
    });

    it(`asks for the revision at most once per ${TOKEN_REVISION_INTERVAL_MS} ms, and not at all on a cache miss once known`, async () => {
      expect(TOKEN_REVISION_INTERVAL_MS).toBe(900);
      const { value } = await service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      await service.authenticate(value);
      await settle();
      recorder.take();

      for (let step = 0; step < 8; step += 1) {
        clock.advance(100);
        expect(await service.authenticate(value)).not.toBeNull();
      }
      await settle();
      expect(recorder.take()).toEqual([]);

      clock.advance(100);
      expect(await service.authenticate(value)).not.toBeNull();
      expect(await service.authenticate(value)).not.toBeNull();
      await settle();
      expect(recorder.take()).toEqual([expect.stringMatching(REVISION_QUERY)]);

      // A value never seen before is looked up without a revision check.
      clock.advance(TOKEN_REVISION_INTERVAL_MS);
      expect(await service.authenticate('hsp_never-seen-before')).toBeNull();
      await settle();
      const queries = recorder.take();
      expect(queries).toHaveLength(1);
      expect(lookups(queries)).toHaveLength(1);
    });

    it('concurrent requests that find the check due share one revision query', async () => {
      const { value } = await service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      await service.authenticate(value);
      await settle();
      recorder.take();
      clock.advance(TOKEN_REVISION_INTERVAL_MS);
      const answers = await Promise.all(Array.from({ length: 5 }, () => service.authenticate(value)));
      expect(answers.every((token) => token !== null)).toBe(true);
      await settle();
      expect(recorder.take()).toEqual([expect.stringMatching(REVISION_QUERY)]);
    });

    it('cache off: asks the database every time, with no revision check', async () => {
      const uncached = serviceWithCacheTtl(0);
      const { value } = await uncached.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      recorder.take();
      for (let i = 0; i < 3; i += 1) expect(await uncached.authenticate(value)).not.toBeNull();
      for (let i = 0; i < 2; i += 1) expect(await uncached.authenticate('hsp_unknown')).toBeNull();
      await settle();
      const queries = recorder.take().filter((q) => /^SELECT/i.test(q));
      expect(queries).toHaveLength(5);
      expect(lookups(queries)).toHaveLength(5);
    });

    it(`sees a revocation made elsewhere (another instance, the CLI) within ${TOKEN_REVISION_INTERVAL_MS} ms`, async () => {
      const { record, value } = await service.create({
        name: 't',
        permissions: ['read'],
        venueIds: null,
        expiresAt: null,
      });
      expect(await service.authenticate(value)).not.toBeNull();
      const otherInstance = serviceWithCacheTtl(CACHE_TTL_MS);
      await otherInstance.revoke(record.id);
      clock.advance(TOKEN_REVISION_INTERVAL_MS);
      expect(await service.authenticate(value)).toBeNull();
    });

    it('remembers a value that matched no usable token for a few seconds, without a lookup', async () => {
      const { record, value: revoked } = await service.create({
        name: 't',
        permissions: ['read'],
        venueIds: null,
        expiresAt: null,
      });
      await service.revoke(record.id);
      expect(await service.authenticate('hsp_unknown')).toBeNull();
      expect(await service.authenticate(revoked)).toBeNull();
      await settle();
      recorder.take();

      for (let i = 0; i < 3; i += 1) {
        expect(await service.authenticate('hsp_unknown')).toBeNull();
        expect(await service.authenticate(revoked)).toBeNull();
      }
      await settle();
      expect(lookups(recorder.take())).toEqual([]);

      clock.advance(UNKNOWN_TOKEN_TTL_MS);
      expect(await service.authenticate('hsp_unknown')).toBeNull();
      await settle();
      expect(lookups(recorder.take())).toHaveLength(1);
    });

    it('a token created through this instance works at once, even when its value was just remembered as unknown', async () => {
      const value = 'operator-chosen-value-0123456789-abcdefgh';
      expect(await service.authenticate(value)).toBeNull();
      const { record } = await service.create(
        { name: 't', permissions: ['read'], venueIds: null, expiresAt: null },
        value,
      );
      expect(await service.authenticate(value)).toMatchObject({ id: record.id });
    });

    it(`a token created elsewhere works within ${TOKEN_REVISION_INTERVAL_MS} ms, even when its value was remembered as unknown`, async () => {
      const value = 'operator-chosen-value-0123456789-abcdefgh';
      expect(await service.authenticate(value)).toBeNull();
      const { record } = await serviceWithCacheTtl(CACHE_TTL_MS).create(
        { name: 't', permissions: ['read'], venueIds: null, expiresAt: null },
        value,
      );
      clock.advance(TOKEN_REVISION_INTERVAL_MS);
      expect(await service.authenticate(value)).toMatchObject({ id: record.id });
    });

    it('runs beforeLookup just before a lookup, which it can prevent by throwing, and never for a cached answer', async () => {
      const { value } = await service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      await settle();
      recorder.take();
      const refuse = jest.fn(() => Promise.reject(new Error('over the limit')));
      await expect(service.authenticate('hsp_unknown', refuse)).rejects.toThrow('over the limit');
      await expect(service.authenticate(value, refuse)).rejects.toThrow('over the limit');
      await settle();
      expect(lookups(recorder.take())).toEqual([]);

      const allow = jest.fn(() => Promise.resolve());
      expect(await service.authenticate(value, allow)).not.toBeNull();
      expect(await service.authenticate('hsp_unknown', allow)).toBeNull();
      expect(allow).toHaveBeenCalledTimes(2);
      expect(await service.authenticate(value, refuse)).not.toBeNull();
      expect(await service.authenticate('hsp_unknown', refuse)).toBeNull();
      expect(refuse).toHaveBeenCalledTimes(2);
    });
  });

  describe('last_used_at', () => {
    const updates = (queries: string[]) => queries.filter((q) => /^UPDATE/i.test(q) && q.includes('last_used_at'));

    it(`is written on first use and then at most once per ${LAST_USED_WRITE_INTERVAL_MS} ms`, async () => {
      expect(LAST_USED_WRITE_INTERVAL_MS).toBe(60_000);
      const { record, value } = await service.create({
        name: 't',
        permissions: ['read'],
        venueIds: null,
        expiresAt: null,
      });
      recorder.take();

      await service.authenticate(value);
      expect((await row(record.id)).last_used_at).toBe('2030-01-01 00:00:00.000');
      expect(updates(recorder.take())).toHaveLength(1);

      // Within the interval: no write, whether the token comes from the cache or (after the cache
      // entry has run out) from the database again.
      for (const step of [1000, CACHE_TTL_MS, 20_000, 28_999]) {
        clock.advance(step);
        expect(await service.authenticate(value)).not.toBeNull();
      }
      expect((await row(record.id)).last_used_at).toBe('2030-01-01 00:00:00.000');
      expect(updates(recorder.take())).toHaveLength(0);

      clock.set('2030-01-01T00:01:00.000Z');
      await service.authenticate(value);
      expect((await row(record.id)).last_used_at).toBe('2030-01-01 00:01:00.000');
      expect(updates(recorder.take())).toHaveLength(1);
    });

    it('is not written for a failed authentication', async () => {
      const { record } = await service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt: null });
      await service.revoke(record.id);
      recorder.take();
      expect(await service.authenticate('hsp_wrong')).toBeNull();
      await settle();
      expect(updates(recorder.take())).toHaveLength(0);
      expect((await row(record.id)).last_used_at).toBeNull();
    });
  });
});
