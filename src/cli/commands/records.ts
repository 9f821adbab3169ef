import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AccessRecordCaptureModule } from '../../access-records/access-record-capture.module.js';
import { isDay } from '../../access-records/access-records.rules.js';
import { AccessRecordsService, RecordsRefusal } from '../../access-records/access-records.service.js';
import { SigningKeyError } from '../../access-records/signing-key.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, text, valueOption, venueId } from '../option-values.js';

/** `hotspot records export | verify | public-key`: the records for the regulator, by day, signed and chained. */

export type RecordsKeeper = Pick<AccessRecordsService, 'export' | 'verify' | 'publicKey'>;

export const RECORDS_SERVICE: ServiceNeed<RecordsKeeper> = {
  // The service alone, not AccessRecordsModule: its sweep is the service's business, not a command's.
  imports: [AccessRecordCaptureModule],
  providers: [AccessRecordsService],
  resolve: (context) => context.get(AccessRecordsService),
};

function day(raw: string): string {
  if (!isDay(raw)) throw new UsageError('must be a date, YYYY-MM-DD');
  return raw;
}

interface ExportOptions {
  day?: string;
  from?: string;
  venue?: string;
  out: string;
  json?: true;
}

export const recordsCommand: CliCommand = {
  register(program, { io, runtime }) {
    const records = program
      .command('records')
      .description(
        'Records for the regulator: who had which address when, per venue; exported per day as signed, chained files.',
      )
      .addHelpText(
        'after',
        '\nExamples:\n  hotspot records export --out /srv/records\n' +
          '  hotspot records export --day 2026-11-27 --venue lobby --out /srv/records\n' +
          '  hotspot records verify /srv/records\n  hotspot records public-key > records-public-key.pem\n',
      );
    records
      .command('export')
      .description(
        "Seal each venue's finished days not sealed yet (in order, in the venue's time zone) and write the files " +
          'of a day (default: the last finished day) into a folder: <venue>.<day>.jsonl and its signature <venue>.<day>.jsonl.sig.',
      )
      .addOption(valueOption('--day <YYYY-MM-DD>', 'the day to write (the last, with --from)', day))
      .addOption(valueOption('--from <YYYY-MM-DD>', 'write every sealed day from this one to --day', day))
      .addOption(valueOption('--venue <id>', 'this venue only (default: every venue with records)', venueId))
      .addOption(
        valueOption('--out <folder>', 'the folder to write into (made if missing)', text(4096)).makeOptionMandatory(),
      )
      .addOption(flagOption('--json', 'print one JSON object per file written {venue, day, file, records, sha256}'))
      .action((options: ExportOptions) => runtime.use(RECORDS_SERVICE, (keeper) => exportDays(keeper, options, io)));
    records
      .command('verify')
      .description(
        "Check every file of a folder: its signature over its exact bytes, its lines, and each venue's chain of days " +
          '(a day missing or changed is reported). Exit code 1 when anything fails.',
      )
      .argument('<folder>', 'the folder of exported files')
      .addOption(
        valueOption(
          '--public-key <file>',
          "the public key in PEM (default: this installation's signing key)",
          text(4096),
        ),
      )
      .addOption(flagOption('--json', 'print one JSON object {ok, files, chain}'))
      .action((folder: string, options: { publicKey?: string; json?: true }) =>
        runtime.use(RECORDS_SERVICE, (keeper) => verify(keeper, folder, options, io)),
      );
    records
      .command('public-key')
      .description(
        'Print the public key that verifies the files (PEM), for the regulator; its SHA-256 goes to stderr. ' +
          'The signing key is made on first use.',
      )
      .addOption(flagOption('--json', 'print one JSON object {pem, sha256}'))
      .action((options: { json?: true }) => runtime.use(RECORDS_SERVICE, (keeper) => publicKey(keeper, options, io)));
  },
};

/** The service's refusals and key problems as a command failure (exit code 1), never a stack. */
async function failing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RecordsRefusal || error instanceof SigningKeyError) throw new CommandFailure(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
      throw new CommandFailure(`${(error as Error).message.replace(/^[A-Z]+: /, '')}`);
    throw error;
  }
}

async function exportDays(keeper: RecordsKeeper, options: ExportOptions, io: CliIo): Promise<void> {
  if (options.from !== undefined && options.day === undefined) throw new UsageError("option '--from' needs --day");
  if (options.from !== undefined && options.day !== undefined && options.from > options.day)
    throw new UsageError("option '--from' must not come after --day");
  const files = await failing(() =>
    keeper.export({
      folder: resolve(options.out),
      venueId: options.venue ?? null,
      first: options.from ?? null,
      last: options.day ?? null,
    }),
  );
  if (options.json) {
    for (const file of files) printJson(io, file);
    return;
  }
  for (const file of files) io.stdout.write(`${file.file}\t${file.records} record(s)\tsha256 ${file.sha256}\n`);
  if (files.length === 0) io.stderr.write('No sealed day to write: no venue has records for that day yet.\n');
}

async function verify(
  keeper: RecordsKeeper,
  folder: string,
  options: { publicKey?: string; json?: true },
  io: CliIo,
): Promise<void> {
  const check = await failing(async () => {
    const pem = options.publicKey === undefined ? null : await readFile(options.publicKey, 'utf8');
    return keeper.verify(resolve(folder), pem);
  });
  if (options.json) printJson(io, check);
  else {
    for (const file of check.files)
      io.stdout.write(
        file.problems.length === 0
          ? `ok\t${file.name}\t${file.records} record(s)\n`
          : `FAILED\t${file.name}\t${file.problems.join('; ')}\n`,
      );
    for (const problem of check.chain) io.stdout.write(`FAILED\tchain\t${problem}\n`);
  }
  if (check.files.length === 0) throw new CommandFailure(`No .jsonl file in ${folder}`);
  if (!check.ok) throw new CommandFailure('Verification failed: see the lines marked FAILED.');
}

async function publicKey(keeper: RecordsKeeper, options: { json?: true }, io: CliIo): Promise<void> {
  const key = await failing(() => Promise.resolve(keeper.publicKey()));
  if (options.json) {
    printJson(io, key);
    return;
  }
  io.stdout.write(key.pem);
  io.stderr.write(`SHA-256 of the public key (DER): ${key.sha256}\n`);
}
