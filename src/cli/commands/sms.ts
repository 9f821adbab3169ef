import { e164Of } from '../../phone-verification/phone-verification.rules.js';
import { SMS_DRIVER, type SmsDriver } from '../../sms/drivers/sms-driver.js';
import { SMS_DRIVER_PROVIDER } from '../../sms/sms.module.js';
import type { SendVerdict } from '../../sms/sms.rules.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, valueOption } from '../option-values.js';

/** `hotspot sms test --to NUMBER`: one message through the configured gateway, to check its set-up. */

export const TEST_TEXT = 'Test message from the hotspot service: the SMS gateway works.';

export const SMS_DRIVER_NEED: ServiceNeed<SmsDriver> = {
  providers: [SMS_DRIVER_PROVIDER],
  resolve: (context) => context.get<SmsDriver>(SMS_DRIVER),
};

/** An E.164 number (a `+` and the country code), as the project's phone rule reads it. */
function internationalNumber(raw: string): string {
  const read = e164Of(raw, { defaultCountryCode: null, countryCodes: [] });
  if ('phone' in read) return read.phone;
  throw new UsageError('must be a phone number with its country code, e.g. +905551234567');
}

export const smsCommand: CliCommand = {
  register(program, { io, runtime }) {
    const sms = program.command('sms').description('The SMS gateway of the portal’s phone codes (docs/sms.md).');
    sms
      .command('test')
      .description(
        'Send one test message (no code) through SMS_GATEWAY at once, outside the outbox, and say how the ' +
          'gateway answered; exit code 1 when it did not accept it.',
      )
      .addOption(
        valueOption('--to <number>', 'the recipient, with its country code', internationalNumber).makeOptionMandatory(),
      )
      .addOption(flagOption('--json', 'print one JSON object {gateway, to, verdict, providerId, reason}'))
      .action((options: { to: string; json?: true }) =>
        runtime.use(SMS_DRIVER_NEED, (driver) => sendTest(driver, options, io)),
      );
  },
};

async function sendTest(driver: SmsDriver, options: { to: string; json?: true }, io: CliIo): Promise<void> {
  const verdict: SendVerdict = await driver.send(
    { id: 'cli-test', to: options.to, text: TEST_TEXT, reportUrl: null },
    new AbortController().signal,
  );
  if (options.json) {
    printJson(io, {
      gateway: driver.name,
      to: options.to,
      verdict: verdict.verdict,
      providerId: verdict.verdict === 'accepted' ? verdict.providerId : null,
      reason: verdict.verdict === 'accepted' ? null : verdict.reason,
    });
    if (verdict.verdict !== 'accepted') throw new CommandFailure(`The gateway did not accept it: ${verdict.reason}`);
    return;
  }
  if (verdict.verdict !== 'accepted')
    throw new CommandFailure(`The ${driver.name} gateway did not accept it: ${verdict.reason}`);
  io.stdout.write(`Accepted by the ${driver.name} gateway for ${options.to}.\n`);
}
