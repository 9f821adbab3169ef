import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import type { DatabaseService } from '../database/database.service.js';
import type { PasswordHasher } from '../common/passwords/password-hasher.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { OperatorEntity } from './entities/operator.entity.js';
import { OperatorsRepository } from './operators.repository.js';
import {
  LastActiveAdminError,
  OperatorEmailTakenError,
  OperatorsService,
  OperatorValidationError,
} from './operators.service.js';

/** One-time passwords last 72 hours, as by default. */
const consoleConfig = {
  get: () => ({ oneTimePasswordLifetimeMs: 72 * 3_600_000 }),
} as unknown as ConstructorParameters<typeof OperatorsService>[5];

/** Hashing is the library's job; here only what was hashed matters. */
const fakeHasher = { hash: (password: string) => Promise.resolve(`hashed:${password}`) } as unknown as PasswordHasher;

describe('OperatorsService', () => {
  let database: DatabaseService;
  let close: () => Promise<void>;
  let clock: ManualClock;
  let service: OperatorsService;
  const rows = () => database.run((em) => em.find(OperatorEntity));
  const input = { email: 'Ops@Example.com', name: 'Ops', permissions: ['read' as const], venueIds: null, admin: false };

  beforeEach(async () => {
    ({ database, close } = await openInMemoryDatabase());
    clock = new ManualClock();
    service = new OperatorsService(
      database,
      new OperatorsRepository(),
      fakeHasher,
      clock,
      new AuditService(database, new AuditRepository(), clock),
      consoleConfig,
    );
  });
  afterEach(() => close());

  it('creates the first administrator once: with every permission, every venue and a one-time password', async () => {
    const created = await service.createFirstAdmin('admin@localhost');
    expect(created?.operator).toMatchObject({
      email: 'admin@localhost',
      name: 'Administrator',
      permissions: ['read', 'write', 'delete'],
      venueIds: null,
      admin: true,
      mustChangePassword: true,
    });
    const [row] = await rows();
    expect(row.passwordHash).toBe(`hashed:${created!.oneTimePassword}`);
    expect(await service.createFirstAdmin('admin@localhost')).toBeNull();
    expect(await service.createFirstAdmin('other@localhost')).toBeNull();
    expect(await rows()).toHaveLength(1);
  });

  it('creates no first administrator once any operator exists, and one only when two starts race', async () => {
    await service.create(input);
    expect(await service.createFirstAdmin('admin@localhost')).toBeNull();

    const fresh = await openInMemoryDatabase();
    try {
      const racing = new OperatorsService(
        fresh.database,
        new OperatorsRepository(),
        fakeHasher,
        clock,
        new AuditService(fresh.database, new AuditRepository(), clock),
        consoleConfig,
      );
      const results = await Promise.all([racing.createFirstAdmin('admin@localhost'), racing.createFirstAdmin('a@b')]);
      expect(results.filter((result) => result !== null)).toHaveLength(1);
      expect(await fresh.database.run((em) => em.count(OperatorEntity))).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('checks a given password against the policy with the email and name, and stores it as given', async () => {
    await expect(service.create({ ...input, password: 'ops@example.com' })).rejects.toEqual(
      new OperatorValidationError('password', 'must not be your email or name'),
    );
    const created = await service.create({ ...input, password: 'a long passphrase' });
    expect(created.oneTimePassword).toBeNull();
    expect(created.operator.mustChangePassword).toBe(false);
    expect(created.operator.oneTimePasswordExpiresAt).toBeNull();
    expect((await rows())[0].passwordHash).toBe('hashed:a long passphrase');
  });

  it('gives every one-time password (create, reset, first administrator) 72 hours from when it was made', async () => {
    const start = clock.now().getTime();
    const created = await service.create(input);
    expect(created.operator.oneTimePasswordExpiresAt).toBe(new Date(start + 72 * 3_600_000).toISOString());
    clock.advance(3_600_000);
    const reset = await service.resetPassword(created.operator.id);
    expect(reset?.operator.oneTimePasswordExpiresAt).toBe(new Date(start + 73 * 3_600_000).toISOString());
    expect((await rows())[0].oneTimePasswordExpiresAt?.getTime()).toBe(start + 73 * 3_600_000);
    const fresh = await openInMemoryDatabase();
    try {
      const first = await new OperatorsService(
        fresh.database,
        new OperatorsRepository(),
        fakeHasher,
        clock,
        new AuditService(fresh.database, new AuditRepository(), clock),
        consoleConfig,
      ).createFirstAdmin('admin@localhost');
      expect(first?.operator.oneTimePasswordExpiresAt).toBe(new Date(start + 73 * 3_600_000).toISOString());
    } finally {
      await fresh.close();
    }
  });

  it('refuses a bad field by name and a taken email in any case', async () => {
    await expect(service.create({ ...input, email: 'nobody' })).rejects.toBeInstanceOf(OperatorValidationError);
    await expect(service.create({ ...input, permissions: ['radius'] })).rejects.toMatchObject({
      field: 'permissions',
    });
    await expect(service.create({ ...input, venueIds: [] })).rejects.toMatchObject({ field: 'venueIds' });
    await service.create(input);
    await expect(service.create({ ...input, email: 'OPS@example.COM' })).rejects.toBeInstanceOf(
      OperatorEmailTakenError,
    );
  });

  it('moves rights_version and updated_at on with every change, and not when nothing changes', async () => {
    const { operator } = await service.create(input);
    clock.advance(60_000);
    expect((await service.disable('ops@example.com'))?.changed).toBe(true);
    clock.advance(60_000);
    expect((await service.disable(operator.id))?.changed).toBe(false);
    expect(await service.resetTotp(operator.id)).toMatchObject({ wasEnrolled: false });
    let [row] = await rows();
    expect(row.rightsVersion).toBe(2);
    expect(row.updatedAt.getTime() - row.createdAt.getTime()).toBe(60_000);

    const reset = await service.resetPassword(operator.id);
    [row] = await rows();
    expect(row).toMatchObject({ rightsVersion: 3, passwordHash: `hashed:${reset!.oneTimePassword}` });
    expect(Boolean(row.mustChangePassword)).toBe(true);
    expect(await service.enable('nobody@example.com')).toBeNull();
  });

  it('changes rights: names the changed fields, moves rights_version on, and writes nothing for the same values', async () => {
    const { operator } = await service.create(input);
    const changed = await service.changeRights(operator.id, { permissions: ['read', 'write'], venueIds: ['B', 'A'] });
    expect(changed?.changedFields.sort()).toEqual(['permissions', 'venueIds']);
    expect(changed?.operator).toMatchObject({ permissions: ['read', 'write'], venueIds: ['B', 'A'] });
    let [row] = await rows();
    expect(row.rightsVersion).toBe(2);

    const same = await service.changeRights('OPS@example.com', { venueIds: ['A', 'B'], admin: operator.admin });
    expect(same?.changedFields).toEqual([]);
    [row] = await rows();
    expect(row.rightsVersion).toBe(2);

    expect((await service.changeRights(operator.id, { venueIds: null, admin: true }))?.changedFields).toEqual([
      'venueIds',
      'admin',
    ]);
    [row] = await rows();
    expect(row).toMatchObject({ rightsVersion: 3, venueIds: null });
    await expect(service.changeRights(operator.id, { permissions: [] })).rejects.toThrow(OperatorValidationError);
    expect(await service.changeRights('nobody@example.com', { admin: true })).toBeNull();
  });

  it('refuses a console operator who would disable or demote the last active administrator; the command line may', async () => {
    const { operator: admin } = await service.create({ ...input, admin: true });
    const console = { type: 'operator' as const, id: admin.id, name: admin.email };
    await expect(service.disable(admin.id, console)).rejects.toBeInstanceOf(LastActiveAdminError);
    await expect(service.changeRights(admin.id, { admin: false }, console)).rejects.toBeInstanceOf(
      LastActiveAdminError,
    );
    expect((await rows())[0]).toMatchObject({ status: 'active', rightsVersion: 1 });
    expect((await service.changeRights(admin.id, { name: 'Still admin' }, console))?.changedFields).toEqual(['name']);

    const { operator: other } = await service.create({ ...input, email: 'other@example.com', admin: true });
    expect((await service.disable(admin.id, console))?.changed).toBe(true);
    await expect(service.changeRights(other.id, { admin: false }, console)).rejects.toBeInstanceOf(
      LastActiveAdminError,
    );
    expect((await service.disable(other.id))?.changed).toBe(true);
  });
});
