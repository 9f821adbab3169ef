import { kannelSendUrl, kannelVerdict, type SendVerdict } from '../sms.rules.js';
import { answerText, unansweredVerdict, type OutgoingSms, type SmsDriver } from './sms-driver.js';

/**
 * Kannel's HTTP sendsms (smsbox's `sendsms-port`): one GET per message, the configured URL carrying
 * `username` and `password` of a `sendsms-user`. The URL is never logged: it holds the password and,
 * once built, the text.
 */
export class KannelDriver implements SmsDriver {
  readonly name = 'kannel';

  constructor(private readonly options: { url: string; sender: string | null; timeoutMs: number }) {}

  async send(message: OutgoingSms, signal: AbortSignal): Promise<SendVerdict> {
    const url = kannelSendUrl(this.options.url, {
      to: message.to,
      text: message.text,
      from: this.options.sender,
      reportUrl: message.reportUrl,
    });
    let response: Response;
    try {
      response = await fetch(url, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]),
        redirect: 'manual',
      });
    } catch (error) {
      return unansweredVerdict(error, 'kannel', this.options.timeoutMs);
    }
    return kannelVerdict(response.status, await answerText(response));
  }
}
