import { NasSecretUnavailableError } from '../../nas/secret-box.js';
import { AuditModule } from '../../audit/audit.module.js';
import { BatchesRepository } from '../../batches/batches.repository.js';
import { BatchesService } from '../../batches/batches.service.js';
import { IdempotencyModule } from '../../idempotency/idempotency.module.js';
import { NasClientsRepository } from '../../nas/nas-clients.repository.js';
import { NasService } from '../../nas/nas.service.js';
import { ConsoleFormTokensRepository } from '../../operators/console-form-tokens.repository.js';
import { ConsoleFormTokensService } from '../../operators/console-form-tokens.service.js';
import { OperatorsRepository } from '../../operators/operators.repository.js';
import { OperatorsService } from '../../operators/operators.service.js';
import { PlansModule } from '../../plans/plans.module.js';
import { SmsRepository } from '../../sms/sms.repository.js';
import { SmsService } from '../../sms/sms.service.js';
import { VenuesModule } from '../../venues/venues.module.js';
import { CommandVenueScopeModule } from '../command-venue-scope.module.js';
import { GuestAccessRepository } from '../../guest-access/guest-access.repository.js';
import { VenuePortalsService } from '../../guest-access/venue-portals.service.js';
import { SecretsService, type SecretsRotation } from '../../secrets/secrets.service.js';
import { CommandFailure, printJson, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption } from '../option-values.js';

/** `hotspot secrets rotate`: every stored secret moves to a new key. */

export type SecretsKeeper = Pick<SecretsService, 'rotate'>;

export const SECRETS_SERVICE: ServiceNeed<SecretsKeeper> = {
  // The services alone, not their modules: the modules' start-up work (the first administrator, the
  // NAS secrets check) is the service's business, not a command's.
  imports: [AuditModule, VenuesModule, IdempotencyModule, CommandVenueScopeModule, PlansModule],
  providers: [
    NasService,
    NasClientsRepository,
    BatchesService,
    BatchesRepository,
    OperatorsService,
    OperatorsRepository,
    ConsoleFormTokensService,
    ConsoleFormTokensRepository,
    VenuePortalsService,
    GuestAccessRepository,
    SmsService,
    SmsRepository,
    SecretsService,
  ],
  resolve: (context) => context.get(SecretsService),
};

export const secretsCommand: CliCommand = {
  register(program, { io, runtime }) {
    const secrets = program
      .command('secrets')
      .description(
        'The key that seals stored secrets (NAS shared secrets, TOTP keys, voucher passwords, openNDS faskeys).',
      );
    secrets
      .command('rotate')
      .description(
        'Seal every stored secret (those still in clear too) under a new random key, in one transaction. ' +
          'With a key file (SECRETS_KEY_FILE, or secrets.key beside the SQLite database) the file gets the new key; ' +
          'with SECRETS_KEY the new key is printed alone on stdout, to be set on every instance. ' +
          'Stop the service and worker first, or restart them right after: they keep the old key until then.',
      )
      .addOption(
        flagOption(
          '--json',
          'print one JSON object {nasSecrets, totpSeeds, batchPasswords, portalFaskeys, smsMessages, keyFile, newKey}',
        ),
      )
      .action((options: { json?: true }) => runtime.use(SECRETS_SERVICE, (keeper) => rotate(keeper, options, io)));
  },
};

async function rotate(keeper: SecretsKeeper, options: { json?: true }, io: CliIo): Promise<void> {
  let rotation: SecretsRotation;
  try {
    rotation = await keeper.rotate();
  } catch (error) {
    if (error instanceof NasSecretUnavailableError) {
      throw new CommandFailure(`${error.message} Nothing was changed.`);
    }
    throw error;
  }
  const newKey = rotation.newKey?.toString('base64') ?? null;
  if (options.json) {
    printJson(io, { ...rotation, newKey });
    return;
  }
  const counts =
    `Re-sealed ${rotation.nasSecrets} NAS secret(s), ${rotation.totpSeeds} TOTP key(s), ` +
    `${rotation.batchPasswords} batch password(s) and ${rotation.portalFaskeys} portal faskey(s) under a new key.\n` +
    `Re-sealed ${rotation.smsMessages} unsent SMS text(s).`;
  if (rotation.keyFile !== null) {
    io.stdout.write(
      `${counts}\nThe key file ${rotation.keyFile} holds the new key. Restart the service and the worker.\n`,
    );
    return;
  }
  io.stderr.write(
    `${counts}\nThe new key follows, shown only this once: set it as SECRETS_KEY on every instance and restart them; ` +
      'the old key opens nothing any more.\n',
  );
  io.stdout.write(`${newKey}\n`);
}
