import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { BlockList, isIPv4 } from 'node:net';
import type { EntityManager } from 'typeorm';
import { changedFieldNames, CLI_ACTOR, type AuditActor } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import { Clock } from '../common/clock.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import { VENUE_ID_PATTERN } from '../common/validation/validators.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService, type UnitOptions } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { VenuesService } from '../venues/venues.service.js';
import { NasClientEntity } from './entities/nas-client.entity.js';
import { NasClientsRepository } from './nas-clients.repository.js';
import {
  coaPortProblem,
  DEFAULT_COA_PORT,
  NAS_VENDORS,
  nasNameProblem,
  parseNasAddress,
  secretProblem,
  shortSecretProblem,
  type NasVendor,
} from './nas-rules.js';
import { isSealed, openSecret, resealSecret, sealSecret } from './secret-box.js';
import type {
  DisconnectTarget,
  NasDirectory,
  RecordedNasAddress,
} from '../unauth-jobs/dispatchers/radius/nas-directory.js';

/** A registered NAS as shown and passed around: never its secret. */
export interface NasClient {
  id: string;
  venueId: string;
  name: string;
  ipAddress: string;
  coaPort: number;
  vendor: NasVendor;
  requireMessageAuthenticator: boolean;
  /** False once it refused a CoA-Request as unsupported, or when set so: expiry changes then write no CoA job. */
  acceptsCoa: boolean;
  createdAt: Date;
}

/** A NAS with its shared secret in clear, for the FreeRADIUS configuration and for signing packets. */
export interface NasClientWithSecret extends NasClient {
  secret: string;
}

export interface AddNasInput {
  venueId: string;
  name: string;
  ipAddress: string;
  secret: string;
  coaPort?: number;
  vendor?: NasVendor;
  requireMessageAuthenticator?: boolean;
  acceptsCoa?: boolean;
  /** Registers a secret under SECRET_MIN_LENGTH octets (a NAS that cannot take a longer one). */
  allowShortSecret?: boolean;
}

/** What `nas set` changes of a registered NAS; absent fields stay. */
export type NasChanges = Partial<
  Pick<AddNasInput, 'coaPort' | 'vendor' | 'requireMessageAuthenticator' | 'acceptsCoa'>
>;

/** An input the registry refuses; `field` names the input, the message never holds the secret. */
export class NasValidationError extends Error {
  override name = 'NasValidationError';
  constructor(
    readonly field: keyof AddNasInput,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

export class NasNameTakenError extends Error {
  override name = 'NasNameTakenError';
  constructor(readonly nasName: string) {
    super(`A NAS named "${nasName}" is registered already.`);
  }
}

/** `nas remove` was given a value that is one NAS's id (`byId`) and another's name. */
export class NasAmbiguousError extends Error {
  override name = 'NasAmbiguousError';
  constructor(
    readonly idOrName: string,
    readonly byIdName: string,
  ) {
    super('The value is the id of one NAS and the name of another.');
  }
}

/** FreeRADIUS refuses two clients with one address (and could not tell their requests apart). */
export class NasAddressTakenError extends Error {
  override name = 'NasAddressTakenError';
  constructor(
    readonly address: string,
    readonly nasName: string,
  ) {
    super(`The address ${address} is registered already, for the NAS "${nasName}".`);
  }
}

/**
 * How long identify() relies on what it read of a NAS name (registered or not). Changes made through
 * this instance apply at once; changes made elsewhere (the CLI) within this time.
 */
export const NAS_LOOKUP_TTL_MS = 5000;
/** NAS names whose lookup is remembered at most (FreeRADIUS only sends the names of its clients). */
const NAS_LOOKUP_MAX_ENTRIES = 1000;

/** What identify() read of a NAS name: the record (null: none registered), its address test, until when it is trusted (ms). */
interface NasLookup {
  record: NasClientEntity | null;
  matches: (sourceIp: string) => boolean;
  until: number;
}

export interface SecretStorageReport {
  total: number;
  plain: number;
  /** Names of NASes whose stored secret the current SECRETS_KEY (or its absence) cannot open. */
  unreadable: string[];
}

/** The NAS registry: the clients FreeRADIUS accepts, and how the service recognises them. */
@Injectable()
export class NasService implements NasDirectory {
  private readonly key: Buffer | null;
  /** NAS name → its record (null: none registered) and until when it is trusted, in ms; oldest first. */
  private readonly lookups = new Map<string, NasLookup>();
  /** Moves on at every change of the registry here, so a lookup that read before it is not remembered. */
  private generation = 0;

  constructor(
    private readonly database: DatabaseService,
    private readonly nasClients: NasClientsRepository,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    config: ConfigService<AppConfig, true>,
    private readonly venues: VenuesService,
  ) {
    this.key = config.get('secretsKey', { infer: true }) ?? null;
  }

  /** Whether new secrets are encrypted (SECRETS_KEY is set). */
  get encryptsSecrets(): boolean {
    return this.key !== null;
  }

  /**
   * Registers a NAS; nas.add is recorded for `actor` (the command line unless said otherwise), never
   * its secret. A caller's `claim` (the console's form token) is taken first and settled last, in its transaction.
   */
  async add(
    input: AddNasInput,
    actor: AuditActor = CLI_ACTOR,
    claim: TransactionClaim<NasClient> | null = null,
  ): Promise<NasClient> {
    const record = new NasClientEntity();
    record.id = newId();
    record.venueId = check('venueId', input.venueId, (v) =>
      VENUE_ID_PATTERN.test(v) ? null : 'must be 1-64 characters of A-Za-z0-9_.:-',
    );
    record.name = check('name', input.name, nasNameProblem);
    const address = parseNasAddress(input.ipAddress);
    if ('error' in address) throw new NasValidationError('ipAddress', address.error);
    record.ipAddress = address.text;
    const secret = check('secret', input.secret, secretProblem);
    if (input.allowShortSecret !== true) check('secret', secret, shortSecretProblem);
    record.coaPort = check('coaPort', input.coaPort ?? DEFAULT_COA_PORT, coaPortProblem);
    record.vendor = check('vendor', input.vendor ?? 'other', vendorProblem);
    record.requireMessageAuthenticator = input.requireMessageAuthenticator ?? false;
    record.acceptsCoa = input.acceptsCoa ?? true;
    record.storedSecret = sealSecret(secret, record.id, this.key);
    record.createdAt = this.clock.now();
    try {
      await this.database.transaction(async (em) => {
        await claim?.take(em);
        const holder = await this.nasClients.findByAddress(em, record.ipAddress);
        if (holder !== null) throw new NasAddressTakenError(record.ipAddress, holder.name);
        await this.nasClients.insert(em, record);
        await this.audit.record(em, {
          actor,
          action: 'nas.add',
          target: { type: 'nas', id: record.id },
          venueIds: [record.venueId],
        });
        await claim?.settle(em, view(record));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw await this.takenError(record);
      throw error;
    } finally {
      this.forgetLookups();
    }
    return view(record);
  }

  /**
   * Why the insert of `record` broke a unique index (name or address): an add of the same address
   * or name committed between the check and the insert. Read again to name the holder.
   */
  private async takenError(record: NasClientEntity): Promise<Error> {
    const holder = await this.database.run((em) => this.nasClients.findByAddress(em, record.ipAddress));
    return holder === null
      ? new NasNameTakenError(record.name)
      : new NasAddressTakenError(record.ipAddress, holder.name);
  }

  /** Whether `venueId` has an entry in the venue registry (`nas add` warns when it has none). */
  async isVenueRegistered(venueId: string): Promise<boolean> {
    return (await this.venues.unregisteredNow([venueId])).length === 0;
  }

  /** How many registered NASes have a Disconnect/CoA port: none, and no Disconnect-Request reaches a NAS. */
  countWithCoaPort(): Promise<number> {
    return this.database.run((em) => this.nasClients.countWithCoaPort(em));
  }

  /** Every NAS, oldest first. */
  async list(): Promise<NasClient[]> {
    return (await this.records()).map(view);
  }

  /** Every NAS with its secret in clear; NasSecretUnavailableError when one cannot be decrypted. */
  async listWithSecrets(): Promise<NasClientWithSecret[]> {
    return (await this.records()).map((record) => this.withSecret(record));
  }

  /** Removes a NAS by id or name; returns it, or null when none matches. `claim` as add's. */
  async remove(
    idOrName: string,
    actor: AuditActor = CLI_ACTOR,
    claim: TransactionClaim<NasClient> | null = null,
  ): Promise<NasClient | null> {
    try {
      return await this.database.transaction(async (em) => {
        await claim?.take(em);
        const record = await this.findByIdOrName(em, idOrName);
        if (record === null) return null;
        await this.nasClients.delete(em, record.id);
        await this.audit.record(em, {
          actor,
          action: 'nas.remove',
          target: { type: 'nas', id: record.id },
          venueIds: [record.venueId],
        });
        await claim?.settle(em, view(record));
        return view(record);
      });
    } finally {
      this.forgetLookups();
    }
  }

  /** Changes a NAS found by id or name; returns it as changed, or null when none matches. */
  async update(idOrName: string, changes: NasChanges, actor: AuditActor = CLI_ACTOR): Promise<NasClient | null> {
    const checked: NasChanges = {};
    if (changes.coaPort !== undefined) checked.coaPort = check('coaPort', changes.coaPort, coaPortProblem);
    if (changes.vendor !== undefined) checked.vendor = check('vendor', changes.vendor, vendorProblem);
    if (changes.requireMessageAuthenticator !== undefined) {
      checked.requireMessageAuthenticator = changes.requireMessageAuthenticator;
    }
    if (changes.acceptsCoa !== undefined) checked.acceptsCoa = changes.acceptsCoa;
    try {
      return await this.database.transaction(async (em) => {
        const record = await this.findByIdOrName(em, idOrName);
        if (record === null) return null;
        // SQLite hands booleans back as 0 and 1.
        const stored = {
          ...record,
          requireMessageAuthenticator: Boolean(record.requireMessageAuthenticator),
          acceptsCoa: Boolean(record.acceptsCoa),
        };
        const changedFields = changedFieldNames(stored, { ...checked });
        if (changedFields.length > 0) {
          await this.nasClients.update(em, record.id, checked);
          await this.audit.record(em, {
            actor,
            action: 'nas.update',
            target: { type: 'nas', id: record.id },
            venueIds: [record.venueId],
            changedFields,
          });
        }
        return view(Object.assign(record, checked));
      });
    } finally {
      this.forgetLookups();
    }
  }

  /** The NAS whose id or name is `idOrName`; NasAmbiguousError when it is one's id and another's name. */
  private async findByIdOrName(em: EntityManager, idOrName: string): Promise<NasClientEntity | null> {
    const byId = await this.nasClients.findById(em, idOrName);
    const byName = await this.nasClients.findByName(em, idOrName);
    // A name may look like an id: never guess which of two NASes was meant.
    if (byId !== null && byName !== null && byId.id !== byName.id) throw new NasAmbiguousError(idOrName, byId.name);
    return byId ?? byName;
  }

  /**
   * The NAS FreeRADIUS authenticated: its client shortname and the source address of the packet,
   * which must lie inside the registered address or network. Null when they do not match a NAS.
   * Every RADIUS request asks, so the registry's answer for a name is reused for NAS_LOOKUP_TTL_MS.
   */
  async identify(shortname: string, sourceIp: string, unit: UnitOptions = {}): Promise<NasClientWithSecret | null> {
    if (nasNameProblem(shortname) !== null) return null;
    const { record, matches } = await this.lookUp(shortname, { ...unit, lane: 'radius' });
    if (record === null || !matches(sourceIp)) return null;
    return this.withSecret(record);
  }

  /**
   * Where a Disconnect/CoA-Request for a session of NAS `id` goes. A NAS registered as one address is
   * reached there; one registered as a network at the address its accounting came from (or else its
   * NAS-IP-Address), provided it lies in that network. Null when the NAS is no longer registered.
   */
  async disconnectTarget(id: string, recorded: RecordedNasAddress): Promise<DisconnectTarget | null> {
    const record = await this.database.run((em) => this.nasClients.findById(em, id));
    if (record === null) return null;
    const parsed = parseNasAddress(record.ipAddress);
    const single = !('error' in parsed) && parsed.text === parsed.address;
    const host = single
      ? parsed.address
      : ([recorded.nasSourceIp, recorded.nasIpAddress].find(
          (address) => address !== null && addressMatches(record.ipAddress, address),
        ) ?? null);
    const { name, vendor, coaPort } = record;
    return {
      name,
      vendor,
      coaPort,
      acceptsCoa: Boolean(record.acceptsCoa),
      host: host?.replace(/^::ffff:(?=\d+\.)/i, '') ?? null,
      secret: this.withSecret(record).secret,
    };
  }

  /**
   * The NAS refused a CoA-Request as unsupported: it is marked as not accepting CoA. True when this
   * call changed the mark (so the caller says so once), false when it was marked already or is gone.
   */
  async markRefusingCoa(id: string): Promise<boolean> {
    return this.database.transaction((em) => this.nasClients.markRefusingCoa(em, id));
  }

  /** Of the NASes `ids`, those marked as not accepting CoA, read through the caller's transaction. */
  async refusingCoa(em: EntityManager, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set(await this.nasClients.findIdsRefusingCoa(em, ids));
  }

  /**
   * Seals every NAS secret anew under `to` (null: in clear), inside the caller's transaction; returns
   * how many. NasSecretUnavailableError (nothing written) when `from` cannot open one of them.
   */
  async resealSecrets(em: EntityManager, from: Buffer | null, to: Buffer | null): Promise<number> {
    const records = await this.nasClients.listSecretsForUpdate(em, this.database.supportsRowLocks);
    for (const record of records) {
      await this.nasClients.replaceSecret(
        em,
        record.id,
        resealSecret(record.storedSecret, record.id, record.name, from, to),
      );
    }
    return records.length;
  }

  /** How the stored secrets stand against the current SECRETS_KEY, for the start-up warning. */
  async secretStorageReport(): Promise<SecretStorageReport> {
    const records = await this.records();
    const unreadable: string[] = [];
    for (const record of records) {
      try {
        openSecret(record.storedSecret, record.id, record.name, this.key);
      } catch {
        unreadable.push(record.name);
      }
    }
    return { total: records.length, plain: records.filter((r) => !isSealed(r.storedSecret)).length, unreadable };
  }

  /** The NAS registered as `name` and its address test, as read within the last NAS_LOOKUP_TTL_MS, or read now. */
  private async lookUp(name: string, unit: UnitOptions): Promise<NasLookup> {
    const cached = this.lookups.get(name);
    if (cached !== undefined && cached.until > this.clock.now().getTime()) return cached;
    const generation = this.generation;
    const record = await this.database.run((em) => this.nasClients.findByName(em, name), unit);
    const lookup: NasLookup = {
      record,
      matches: record === null ? () => false : addressMatcher(record.ipAddress),
      until: this.clock.now().getTime() + NAS_LOOKUP_TTL_MS,
    };
    if (generation === this.generation) {
      this.lookups.delete(name);
      const oldest = this.lookups.keys().next();
      if (this.lookups.size >= NAS_LOOKUP_MAX_ENTRIES && oldest.done !== true) this.lookups.delete(oldest.value);
      this.lookups.set(name, lookup);
    }
    return lookup;
  }

  private forgetLookups(): void {
    this.generation += 1;
    this.lookups.clear();
  }

  private records(): Promise<NasClientEntity[]> {
    return this.database.run((em) => this.nasClients.listOldestFirst(em));
  }

  private withSecret(record: NasClientEntity): NasClientWithSecret {
    return { ...view(record), secret: openSecret(record.storedSecret, record.id, record.name, this.key) };
  }
}

function vendorProblem(vendor: string): string | null {
  return (NAS_VENDORS as readonly string[]).includes(vendor) ? null : `must be one of ${NAS_VENDORS.join(', ')}`;
}

function check<T>(field: keyof AddNasInput, value: T, problem: (value: T) => string | null): T {
  const message = problem(value);
  if (message !== null) throw new NasValidationError(field, message);
  return value;
}

function view(record: NasClientEntity): NasClient {
  return {
    id: record.id,
    venueId: record.venueId,
    name: record.name,
    ipAddress: record.ipAddress,
    coaPort: record.coaPort,
    vendor: record.vendor,
    requireMessageAuthenticator: Boolean(record.requireMessageAuthenticator),
    acceptsCoa: Boolean(record.acceptsCoa),
    createdAt: record.createdAt,
  };
}

/** Whether `sourceIp` lies in the stored address or network (an IPv4-mapped IPv6 source counts as IPv4). */
export function addressMatches(stored: string, sourceIp: string): boolean {
  return addressMatcher(stored)(sourceIp);
}

/** addressMatches for one stored address, parsed once. */
function addressMatcher(stored: string): (sourceIp: string) => boolean {
  const parsed = parseNasAddress(stored);
  if ('error' in parsed) return () => false;
  const type = parsed.family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  list.addSubnet(parsed.address, parsed.prefixLength, type);
  return (sourceIp) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(sourceIp);
    const source = mapped ? mapped[1] : sourceIp;
    if (isIPv4(source) !== (parsed.family === 4)) return false;
    try {
      return list.check(source, type);
    } catch {
      return false;
    }
  };
}
