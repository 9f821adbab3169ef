import { sha256Hex } from '../common/sha256.js';
import { randomBytes } from 'node:crypto';
import type { SmsDeliveryState } from './entities/sms-message.entity.js';

/** GSM 03.38's default alphabet and its extension table: what an SMS carries without UCS-2. */
const GSM_7BIT =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§' +
  '¿abcdefghijklmnopqrstuvwxyzäöñüà' +
  '^{}\\[~]|€\f';

/** Whether `text` fits GSM 7-bit; otherwise it goes as UCS-2 (Turkish ğ, ı, ş, … need that). */
export function isGsm7(text: string): boolean {
  for (const character of text) if (!GSM_7BIT.includes(character)) return false;
  return true;
}

/** The unguessable reference a message's delivery reports carry, and the key it is stored under. */
export function newReportReference(): string {
  return randomBytes(24).toString('base64url');
}

export function reportKeyOf(reference: string): string {
  return sha256Hex(reference);
}

/** A reference is 32 characters of base64url; anything else is nobody's. */
export function isReportReference(value: string): boolean {
  return /^[A-Za-z0-9_-]{32}$/.test(value);
}

/** A phone number as log lines show it: the country code and the last two digits. */
export function maskedPhone(e164: string): string {
  return e164.length <= 6 ? '+…' : `${e164.slice(0, 4)}…${e164.slice(-2)}`;
}

/** What the sealed column holds: the text and the delivery reference. */
export interface SmsContent {
  text: string;
  reference: string;
}

export function contentJson(content: SmsContent): string {
  return JSON.stringify({ text: content.text, reference: content.reference });
}

export function contentOf(json: string): SmsContent {
  const parsed = JSON.parse(json) as Partial<SmsContent>;
  if (typeof parsed.text !== 'string' || typeof parsed.reference !== 'string') throw new Error('not an SMS content');
  return { text: parsed.text, reference: parsed.reference };
}

/** The delivery report URL a gateway calls back: the reference in its path, no API token. */
export function reportUrlOf(baseUrl: string, reference: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/sms/reports/${reference}`;
}

// --- Kannel -----------------------------------------------------------------------------------------

/** Every DLR type Kannel knows: delivered (1), failed (2), buffered (4), SMSC accepted (8), SMSC rejected (16). */
export const KANNEL_DLR_MASK = 31;

/**
 * Kannel's sendsms request: the configured URL (its host, `username`, `password` and any other
 * parameter the operator put there, e.g. `smsc`) with the recipient and text set; UTF-8 and UCS-2
 * when the text leaves GSM 7-bit; the delivery report asked for when there is a report URL (Kannel
 * puts the report's type where the URL says `%d`).
 */
export function kannelSendUrl(
  configured: string,
  message: { to: string; text: string; from: string | null; reportUrl: string | null },
): string {
  const url = new URL(configured);
  url.searchParams.set('to', message.to);
  url.searchParams.set('text', message.text);
  if (message.from !== null) url.searchParams.set('from', message.from);
  if (!isGsm7(message.text)) {
    url.searchParams.set('charset', 'UTF-8');
    url.searchParams.set('coding', '2');
  }
  if (message.reportUrl !== null) {
    url.searchParams.set('dlr-mask', String(KANNEL_DLR_MASK));
    url.searchParams.set('dlr-url', `${message.reportUrl}?type=%d`);
  }
  return url.toString();
}

/** How a gateway answered a send: taken, worth another try later, or refused for good. */
export type SendVerdict =
  | { verdict: 'accepted'; providerId: string | null }
  | { verdict: 'retry'; reason: string }
  | { verdict: 'refused'; reason: string };

/**
 * Kannel answers `202` with `0: Accepted for delivery` or `3: Queued for later delivery`; `503`
 * (`Temporal failure, try again later.`) and other 5xx are worth a retry; a 4xx (bad credentials,
 * a parameter refused, `Sender missing…`) will not get better by itself.
 */
export function kannelVerdict(status: number, body: string): SendVerdict {
  const answer = excerpt(body);
  if (status >= 200 && status < 300 && /^\s*[03]:/.test(body)) return { verdict: 'accepted', providerId: null };
  if (status >= 500 || status === 408 || status === 429 || (status >= 200 && status < 300)) {
    return { verdict: 'retry', reason: `kannel answered ${status}: ${answer}` };
  }
  return { verdict: 'refused', reason: `kannel answered ${status}: ${answer}` };
}

/** Kannel's DLR type (the `%d` of dlr-url) as a delivery state; null for one it does not define. */
export function kannelDeliveryState(type: string): SmsDeliveryState | null {
  switch (type.trim()) {
    case '1':
      return 'delivered';
    case '2':
    case '16':
      return 'failed';
    case '4':
      return 'buffered';
    case '8':
      return 'smsc';
    default:
      return null;
  }
}

// --- A generic HTTP provider ------------------------------------------------------------------------

/** How a value is written into each part of the provider's request. */
export type TemplateEncoding = 'url' | 'form' | 'json' | 'xml' | 'raw';

/** The body's encoding by its content type: JSON and XML escaped, forms URL-encoded, else as is. */
export function bodyEncodingOf(contentType: string): TemplateEncoding {
  const type = contentType.toLowerCase();
  if (type.includes('json')) return 'json';
  if (type.includes('xml')) return 'xml';
  if (type.includes('x-www-form-urlencoded')) return 'form';
  return 'raw';
}

export const TEMPLATE_VARIABLES = ['to', 'toDigits', 'text', 'from', 'id', 'reportUrl'] as const;
export type TemplateValues = Record<(typeof TEMPLATE_VARIABLES)[number], string>;

/**
 * `{{name}}` replaced by its value, encoded for where it stands. An unknown name stays as written,
 * so a mistyped variable shows in the provider's answer rather than vanishing.
 */
export function renderTemplate(template: string, values: TemplateValues, encoding: TemplateEncoding): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? encoded(values[name as keyof TemplateValues], encoding) : whole,
  );
}

function encoded(value: string, encoding: TemplateEncoding): string {
  switch (encoding) {
    case 'url':
      return encodeURIComponent(value);
    case 'form':
      return new URLSearchParams({ v: value }).toString().slice(2);
    case 'json':
      return JSON.stringify(value).slice(1, -1);
    case 'xml':
      return value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
    case 'raw':
      return value;
  }
}

/**
 * A provider's answer: 2xx (and, when set, a body matching the accept pattern; its first group, if
 * any, is the provider's message id) is accepted; 408, 429, 5xx, or a 2xx not matching, is retried;
 * another 4xx is refused.
 */
export function httpVerdict(status: number, body: string, acceptPattern: RegExp | null): SendVerdict {
  const answer = excerpt(body);
  if (status >= 200 && status < 300) {
    if (acceptPattern === null) return { verdict: 'accepted', providerId: null };
    const match = acceptPattern.exec(body);
    if (match !== null) return { verdict: 'accepted', providerId: match[1]?.slice(0, 128) ?? null };
    return { verdict: 'retry', reason: `provider answered ${status} without the accept pattern: ${answer}` };
  }
  if (status >= 500 || status === 408 || status === 429) {
    return { verdict: 'retry', reason: `provider answered ${status}: ${answer}` };
  }
  return { verdict: 'refused', reason: `provider answered ${status}: ${answer}` };
}

/**
 * A provider's status word in a delivery report (Twilio's `MessageStatus`, or `status`), as a
 * delivery state; null for one that says nothing new (`sending`, unknown words).
 */
export function wordDeliveryState(word: string): SmsDeliveryState | null {
  switch (word.trim().toLowerCase()) {
    case 'delivered':
      return 'delivered';
    case 'failed':
    case 'undelivered':
    case 'rejected':
    case 'expired':
      return 'failed';
    case 'sent':
      return 'smsc';
    case 'queued':
    case 'accepted':
    case 'buffered':
      return 'buffered';
    default:
      return null;
  }
}

/** A final state (delivered, failed) stays; a report arriving late never takes it back. */
export function nextDeliveryState(
  current: SmsDeliveryState | null,
  reported: SmsDeliveryState,
): SmsDeliveryState | null {
  if (current === 'delivered' || current === 'failed') return null;
  return current === reported ? null : reported;
}

/** What becomes of a message after an attempt that did not get it accepted. */
export function afterFailure(verdict: 'retry' | 'refused', attempts: number, maxAttempts: number): 'retry' | 'failed' {
  return verdict === 'retry' && attempts < maxAttempts ? 'retry' : 'failed';
}

/**
 * The start of a gateway's answer, on one line, for the message's last error and the log. A gateway
 * may echo what it was sent: runs of digits (a code, a phone number) are blotted out.
 */
export function excerpt(body: string): string {
  return (
    body
      .replace(/\d{4,}/g, '#')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || '(empty answer)'
  );
}
