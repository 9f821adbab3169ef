import { sha256Hex } from '../common/sha256.js';
import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { AccessRecordCapture } from './access-record-capture.service.js';
import { AccessRecordsRepository } from './access-records.repository.js';
import {
  dayBounds,
  dayOf,
  fileBytes,
  fileNameOf,
  type FolderCheck,
  type FolderFile,
  GENESIS_SHA256,
  headerLine,
  inFileOrder,
  lastSealableDay,
  nextDay,
  previousDay,
  recordLine,
  signBytes,
  verifyFolder,
  zoneOf,
} from './access-records.rules.js';
import type { AccessRecordDayEntity } from './entities/access-record-day.entity.js';
import { readOrCreateSigningKey, SigningKeyError, type SigningKey } from './signing-key.js';

/** The days an automatic export checks after its first: a day is sealed the day after it ends. */
const RECENT_DAYS = 3;
/** Retention deletes this many rows per statement. */
const FORGET_BATCH_SIZE = 1000;

/** An export or seal that cannot be done as asked: the message says why (exit code 1 in the CLI). */
export class RecordsRefusal extends Error {
  override name = 'RecordsRefusal';
}

/** A day's file an export wrote. */
export interface ExportedFile {
  venue: string;
  day: string;
  file: string;
  records: number;
  sha256: string;
}

/** What `hotspot records public-key` prints: the PEM and its SHA-256 (of the DER), to compare by phone. */
export interface PublicKeyInfo {
  pem: string;
  sha256: string;
}

/**
 * The records for the regulator, by day: each venue's days sealed in order (the file's lines kept,
 * hashed, signed, chained to the day before), written to a folder, verified, and forgotten after
 * RECORDS_KEPT_DAYS.
 */
@Injectable()
export class AccessRecordsService {
  private readonly logger = new Logger('AccessRecords');
  private readonly keyFile: string | null;
  private readonly keptDays: number;
  private key: SigningKey | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly records: AccessRecordsRepository,
    private readonly capture: AccessRecordCapture,
    config: ConfigService<AppConfig, true>,
  ) {
    const settings = config.get('records', { infer: true });
    this.keyFile = settings.signingKeyFile;
    this.keptDays = settings.keptDays;
  }

  /** The signing key, read (or made) on first use. */
  private signingKey(): SigningKey {
    if (this.key !== null) return this.key;
    if (this.keyFile === null)
      throw new SigningKeyError('RECORDS_SIGNING_KEY_FILE is not set: name the file that holds the signing key');
    this.key = readOrCreateSigningKey(this.keyFile);
    return this.key;
  }

  publicKey(): PublicKeyInfo {
    const { publicKey } = this.signingKey();
    return {
      pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      sha256: createHash('sha256')
        .update(publicKey.export({ type: 'spki', format: 'der' }))
        .digest('hex'),
    };
  }

  /** The venues named, or every venue with records or sealed days. */
  private async venuesOf(venueId: string | null): Promise<string[]> {
    return venueId === null ? this.database.run((em) => this.records.findVenues(em)) : [venueId];
  }

  /**
   * Seals the venue's days in order, up to `through` (default: its last day that may be sealed
   * now): from the day after its newest sealed day, or from its first record's day. Returns the
   * days sealed now. Several processes may seal at once: the unique key on (venue, day) keeps one
   * seal of each day, and the loser reads the winner's.
   */
  async sealVenue(venueId: string, through: string | null = null): Promise<string[]> {
    const zone = zoneOf(await this.database.run((em) => this.records.findTimeZone(em, venueId)));
    const last = lastSealableDay(this.clock.now(), zone);
    if (through !== null && through > last)
      throw new RecordsRefusal(
        `${through} at venue ${venueId} cannot be sealed yet: a day is sealed ten minutes after it ends (${zone})`,
      );
    const target = through ?? last;
    const sealed: string[] = [];
    for (;;) {
      const end = await this.database.run((em) => this.records.findChainEnd(em, venueId));
      let day: string;
      if (end !== null) day = nextDay(end.day);
      else {
        const first = await this.database.run((em) => this.records.findFirstStart(em, venueId));
        if (first === null) return sealed;
        day = dayOf(first, zone);
      }
      if (day > target) return sealed;
      try {
        await this.database.transaction((em) => this.sealDay(em, venueId, day, zone, end));
        sealed.push(day);
      } catch (error) {
        // Another process sealed it first: go on from its seal.
        if (!isUniqueViolation(error)) throw error;
      }
    }
  }

  /** One day of the venue: its records' lines, the header naming the day before, hashed and signed. */
  private async sealDay(
    em: EntityManager,
    venueId: string,
    day: string,
    zone: string,
    before: { day: string; sha256: string } | null,
  ): Promise<void> {
    const { from, to } = dayBounds(day, zone);
    const found = [
      ...(await this.records.findStartedBetween(em, venueId, from, to)),
      ...(await this.records.findEndedSince(em, venueId, from)),
      ...(await this.records.findOpenBefore(em, venueId, from)),
    ];
    const records = inFileOrder([...new Map(found.map((record) => [record.sessionId, record])).values()]);
    const sealedAt = this.clock.now();
    const lines = [
      headerLine({
        venue: venueId,
        day,
        timeZone: zone,
        from,
        to,
        records: records.length,
        previousDay: before?.day ?? null,
        previousSha256: before?.sha256 ?? GENESIS_SHA256,
        sealedAt,
      }),
      ...records.map(recordLine),
    ];
    const bytes = fileBytes(lines);
    const id = newId();
    await this.records.insertDay(em, {
      id,
      venueId,
      day,
      timeZone: zone,
      records: records.length,
      sha256: sha256Hex(bytes),
      signature: signBytes(bytes, this.signingKey().privateKey).toString('base64'),
      sealedAt,
    });
    await this.records.insertLines(em, id, lines);
  }

  /**
   * Captures what the usage fold and the sweep have not yet (captureOutstanding), seals every
   * venue's finished days (or those of `venueId`), then writes the files of the days from `first` to
   * `last` into `folder`: `last` defaults to each venue's last day that may be sealed, `first` to
   * `last`. A day sealed before is written from its stored lines: the same bytes.
   */
  async export(options: {
    folder: string;
    venueId: string | null;
    first: string | null;
    last: string | null;
  }): Promise<ExportedFile[]> {
    const written: ExportedFile[] = [];
    await this.capture.captureOutstanding();
    for (const venueId of await this.venuesOf(options.venueId)) {
      await this.sealVenue(venueId, options.last);
      const zone = zoneOf(await this.database.run((em) => this.records.findTimeZone(em, venueId)));
      const last = options.last ?? lastSealableDay(this.clock.now(), zone);
      const first = options.first ?? last;
      const days = await this.database.run((em) => this.records.findDays(em, venueId, first, last));
      for (const day of days) written.push(await this.writeDay(options.folder, day));
    }
    return written;
  }

  /** Writes a sealed day's file and signature, each under a temporary name renamed into place. */
  private async writeDay(folder: string, day: AccessRecordDayEntity): Promise<ExportedFile> {
    const lines = await this.database.run((em) => this.records.findLines(em, day.id));
    const bytes = fileBytes(lines);
    if (sha256Hex(bytes) !== day.sha256)
      throw new RecordsRefusal(`the stored lines of ${day.venueId} ${day.day} no longer match their seal`);
    const name = fileNameOf(day.venueId, day.day);
    await mkdir(folder, { recursive: true });
    await writeAtomically(join(folder, name), bytes);
    await writeAtomically(join(folder, `${name}.sig`), Buffer.from(day.signature, 'base64'));
    return { venue: day.venueId, day: day.day, file: join(folder, name), records: day.records, sha256: day.sha256 };
  }

  /**
   * The automatic export (RECORDS_EXPORT_DIR): every venue's finished days sealed, and the sealed
   * days that the folder lacks written, of the retention period (`kept`) or of the last three days
   * (`recent`). Instances doing it at once write the same bytes, each through a file of its own
   * renamed into place.
   */
  async exportDue(folder: string, period: 'kept' | 'recent'): Promise<ExportedFile[]> {
    await this.capture.captureOutstanding();
    for (const venueId of await this.venuesOf(null)) await this.sealVenue(venueId);
    const present = new Set(await readdir(folder).catch(() => []));
    const days = period === 'kept' ? this.keptDays : RECENT_DAYS;
    const since = dayOf(new Date(this.clock.now().getTime() - days * 86_400_000), 'UTC');
    const sealed = await this.database.run((em) => this.records.findDaysSince(em, since));
    const written: ExportedFile[] = [];
    for (const day of sealed) {
      const name = fileNameOf(day.venueId, day.day);
      if (present.has(name) && present.has(`${name}.sig`)) continue;
      written.push(await this.writeDay(folder, day));
    }
    return written;
  }

  /** Verifies the folder's files (see verifyFolder) with `publicKeyPem`, else this installation's key. */
  async verify(folder: string, publicKeyPem: string | null): Promise<FolderCheck> {
    let publicKey: KeyObject;
    if (publicKeyPem === null) publicKey = this.signingKey().publicKey;
    else {
      try {
        publicKey = createPublicKey(publicKeyPem);
      } catch {
        throw new RecordsRefusal('the public key given is no public key in PEM');
      }
    }
    const names = (await readdir(folder)).filter((name) => name.endsWith('.jsonl')).sort();
    const files: FolderFile[] = [];
    for (const name of names) {
      const signature = await readFile(join(folder, `${name}.sig`)).catch(() => null);
      files.push({ name, bytes: await readFile(join(folder, name)), signature });
    }
    return verifyFolder(files, publicKey);
  }

  /**
   * Deletes the records that ended more than RECORDS_KEPT_DAYS ago, and the sealed days older than
   * that (each venue's newest kept: its chain goes on from it), a batch per statement; how many of
   * each. Several instances may run it at once: each deletes what is still there.
   */
  async forget(): Promise<{ records: number; days: number }> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.keptDays * 86_400_000);
    const oldestDay = previousDay(dayOf(before, 'UTC'));
    let records = 0;
    for (;;) {
      const batch = await this.database.run((em) => this.records.deleteEndedBefore(em, before, FORGET_BATCH_SIZE));
      records += batch;
      if (batch < FORGET_BATCH_SIZE) break;
    }
    let days = 0;
    for (;;) {
      const batch = await this.database.transaction(async (em) => {
        const ids = await this.records.findDaysToForget(em, oldestDay, FORGET_BATCH_SIZE);
        await this.records.deleteDays(em, ids);
        return ids.length;
      });
      days += batch;
      if (batch < FORGET_BATCH_SIZE) break;
    }
    if (records + days > 0) this.logger.log(`Retention: ${records} record(s) and ${days} sealed day(s) deleted`);
    return { records, days };
  }
}

async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  const temporary = `${path}.${process.pid}.${newId()}.tmp`;
  try {
    await writeFile(temporary, bytes, { mode: 0o640 });
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}
