import type { AuditOrigin } from '../../audit/audit.rules.js';
import type { ApiRequest } from '../../common/request-context.js';
import { client } from '../console-page.js';
import type { ConsoleRequest } from '../console-request.js';

/** Where a console change came from, for its audit event: the client's address and the request id. */
export function consoleOrigin(request: ConsoleRequest): AuditOrigin {
  const requestId = (request as Partial<ApiRequest>).requestId;
  return { clientAddress: client(request).ip, requestId: typeof requestId === 'string' ? requestId : null };
}

/** A path parameter as text, '' when Express gives anything else. */
export function pathId(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 256) : '';
}

/** A query string (`?a=b&c=d`) of the given values that are not empty. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const entries = Object.entries(values).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '',
  );
  if (entries.length === 0) return '';
  return `?${new URLSearchParams(entries.map(([name, value]): [string, string] => [name, String(value)])).toString()}`;
}
