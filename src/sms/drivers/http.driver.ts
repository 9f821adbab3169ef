import type { SmsConfig } from '../../config/configuration.js';
import { bodyEncodingOf, httpVerdict, renderTemplate, type SendVerdict, type TemplateValues } from '../sms.rules.js';
import { answerText, unansweredVerdict, type OutgoingSms, type SmsDriver } from './sms-driver.js';

/**
 * A provider's HTTP API described by configuration: a URL template, a method, header templates and a
 * body template, each `{{variable}}` encoded for where it stands (URL, form, JSON, XML). Covers
 * Twilio-style form posts and JSON or GET APIs. Neither the URL nor the body is ever logged.
 */
export class HttpDriver implements SmsDriver {
  readonly name = 'http';

  constructor(
    private readonly options: { url: string; sender: string | null; timeoutMs: number; http: SmsConfig['http'] },
  ) {}

  async send(message: OutgoingSms, signal: AbortSignal): Promise<SendVerdict> {
    const { http } = this.options;
    const values: TemplateValues = {
      to: message.to,
      toDigits: message.to.replace(/^\+/, ''),
      text: message.text,
      from: this.options.sender ?? '',
      id: message.id,
      reportUrl: message.reportUrl ?? '',
    };
    const headers: Record<string, string> = {};
    for (const [name, template] of Object.entries(http.headers))
      headers[name] = renderTemplate(template, values, 'raw');
    const body = http.body === null ? undefined : renderTemplate(http.body, values, bodyEncodingOf(http.contentType));
    if (body !== undefined) headers['Content-Type'] ??= http.contentType;
    let response: Response;
    try {
      response = await fetch(renderTemplate(this.options.url, values, 'url'), {
        method: http.method,
        headers,
        body: http.method === 'GET' ? undefined : body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]),
        redirect: 'manual',
      });
    } catch (error) {
      return unansweredVerdict(error, 'provider', this.options.timeoutMs);
    }
    return httpVerdict(response.status, await answerText(response), http.acceptPattern);
  }
}
