import { writeFile } from 'node:fs/promises';
import { Argument } from 'commander';
import {
  DEFAULT_PASSWORD_LENGTH,
  DEFAULT_PREFIX,
  PREFIX_PATTERN,
  VALID_FOR_MAX,
  VALID_FOR_MIN,
} from '../../batches/batch.rules.js';
import { BatchesModule } from '../../batches/batches.module.js';
import { BatchesService } from '../../batches/batches.service.js';
import { cardsCsv } from '../../batches/csv.js';
import type { BatchDto } from '../../batches/dto/batch.response.js';
import { ApiError } from '../../common/errors/api-error.js';
import { CommandVenueScopeModule } from '../command-venue-scope.module.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, futureDateTime, integerBetween, text, valueOption, venueId } from '../option-values.js';
import { textTable } from '../text-table.js';

/** `hotspot batch create|list|export`: batches of generated accounts (vouchers), as the console makes them. */

export type BatchService = Pick<BatchesService, 'create' | 'list' | 'reveal'>;

export const BATCH_SERVICE: ServiceNeed<BatchService> = {
  imports: [CommandVenueScopeModule, BatchesModule],
  resolve: (context) => context.get(BatchesService),
};

interface CreateOptions {
  venue: string;
  count: number;
  prefix?: string;
  length?: number;
  expiresAt?: Date;
  validFor?: number;
  label?: string;
  plan?: string;
  json?: true;
}

function prefix(raw: string): string {
  if (!PREFIX_PATTERN.test(raw))
    throw new UsageError('must be up to 16 characters of A-Za-z0-9._- starting with a letter or digit');
  return raw;
}

export const batchCommand: CliCommand = {
  register(program, { io, runtime }) {
    const batch = program
      .command('batch')
      .description('Batches of generated accounts (vouchers) for one venue: create, list, export their cards as CSV.')
      .addHelpText(
        'after',
        '\nExamples:\n' +
          '  hotspot batch create --venue lobby --count 50 --expires-at 2030-01-31T12:00:00Z --label "Fair"\n' +
          '  hotspot batch list --venue lobby\n' +
          '  hotspot batch export 019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b48 --out cards.csv\n',
      );

    batch
      .command('create')
      .description(
        'Create up to 1,000 username_password accounts in one transaction. Prints the batch and its usernames; ' +
          'the passwords are shown by `batch export` (or the console), until 24 hours after the first export or print.',
      )
      .addOption(valueOption('--venue <id>', 'the venue of every account', venueId).makeOptionMandatory())
      .addOption(
        valueOption('--count <n>', 'how many accounts, 1 to 1000', integerBetween(1, 1000)).makeOptionMandatory(),
      )
      .addOption(valueOption('--prefix <prefix>', `the usernames' prefix (default ${DEFAULT_PREFIX})`, prefix))
      .addOption(
        valueOption(
          '--length <n>',
          `password length, 8 to 12 (default ${DEFAULT_PASSWORD_LENGTH})`,
          integerBetween(8, 12),
        ),
      )
      .addOption(
        valueOption(
          '--expires-at <time>',
          'when every account expires (ISO 8601 with a zone)',
          futureDateTime(runtime.now),
        ),
      )
      .addOption(
        valueOption(
          '--valid-for <seconds>',
          'validity from each account’s first login',
          integerBetween(VALID_FOR_MIN, VALID_FOR_MAX),
        ),
      )
      .addOption(valueOption('--label <label>', 'how the batch is listed, at most 100 characters', text(100)))
      .addOption(valueOption('--plan <planId>', 'the service plan of every account (offered in the venue)', text(36)))
      .addOption(flagOption('--json', 'print the batch as one JSON object, with its accounts'))
      .action((options: CreateOptions) => runtime.use(BATCH_SERVICE, (service) => create(service, options, io)));

    batch
      .command('list')
      .description("List a venue's batches, newest first (the first 100).")
      .addOption(valueOption('--venue <id>', 'the venue', venueId).makeOptionMandatory())
      .addOption(flagOption('--json', 'print a JSON array'))
      .action((options: { venue: string; json?: true }) =>
        runtime.use(BATCH_SERVICE, (service) => list(service, options, io)),
      );

    batch
      .command('export')
      .description(
        "Write a batch's usernames and passwords as CSV (formula-safe), to stdout or --out (mode 0600). The first " +
          'export or print opens a 24-hour window; after it the passwords are gone. Recorded as batch.reveal.',
      )
      .addArgument(new Argument('<id>', 'the batch id'))
      .addOption(valueOption('--out <file>', 'write the CSV to this new file instead of stdout', text(4096)))
      .addOption(flagOption('--json', 'write the batch and its accounts as one JSON object instead of CSV'))
      .action((id: string, options: { out?: string; json?: true }) =>
        runtime.use(BATCH_SERVICE, (service) => exportCsv(service, id, options, io)),
      );
  },
};

async function create(service: BatchService, options: CreateOptions, io: CliIo): Promise<void> {
  if (options.expiresAt === undefined && options.validFor === undefined)
    throw new UsageError('give --expires-at or --valid-for');
  if (options.expiresAt !== undefined && options.validFor !== undefined)
    throw new UsageError("option '--expires-at' cannot be used with option '--valid-for'");
  const created = await failing(() =>
    service.create(null, {
      venueId: options.venue,
      count: options.count,
      prefix: options.prefix ?? DEFAULT_PREFIX,
      passwordLength: options.length ?? DEFAULT_PASSWORD_LENGTH,
      expiresAt: options.expiresAt ?? null,
      validFor: options.validFor ?? null,
      label: options.label ?? null,
      planId: options.plan ?? null,
    }),
  );
  if (options.json) {
    printJson(io, created);
    return;
  }
  io.stdout.write(`Created batch ${created.id}: ${created.count} accounts in ${created.venueId}.\n`);
  for (const account of created.accounts) io.stdout.write(`${account.username}\n`);
  io.stderr.write(
    `Passwords: hotspot batch export ${created.id} --out FILE (until 24 hours after the first export).\n`,
  );
}

async function list(service: BatchService, options: { venue: string; json?: true }, io: CliIo): Promise<void> {
  const { data } = await failing(() => service.list(null, options.venue, { page: 1, limit: 100 }));
  if (options.json) {
    printJson(io, data);
    return;
  }
  if (data.length === 0) {
    io.stderr.write(`No batches in ${options.venue}.\n`);
    return;
  }
  const cells = data.map((batch: BatchDto) => [
    batch.id,
    batch.label ?? '-',
    String(batch.count),
    batch.expiresAt ?? `${batch.validFor}s from first login`,
    batch.passwords,
    batch.createdAt,
  ]);
  for (const line of textTable(['ID', 'LABEL', 'COUNT', 'VALID', 'PASSWORDS', 'CREATED'], cells))
    io.stdout.write(`${line}\n`);
}

async function exportCsv(
  service: BatchService,
  id: string,
  options: { out?: string; json?: true },
  io: CliIo,
): Promise<void> {
  const revealed = await failing(() => service.reveal(null, id));
  const csv = options.json ? `${JSON.stringify(revealed)}\n` : cardsCsv(revealed);
  if (options.out === undefined) {
    io.stdout.write(csv);
    return;
  }
  try {
    await writeFile(options.out, csv, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw new CommandFailure(`Could not write ${options.out}: ${(error as Error).message}`);
  }
  io.stderr.write(`Wrote ${revealed.cards.length} accounts to ${options.out}.\n`);
}

/** The service's refusals as the command line's failures (exit code 1), with the fields they name. */
async function failing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const fields = (error.body.errors ?? []).map((e) => e.message).join('; ');
    throw new CommandFailure(fields === '' ? error.body.message : `${error.body.message}: ${fields}`);
  }
}
