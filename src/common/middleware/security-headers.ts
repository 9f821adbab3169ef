import type { Request, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/** A header helmet sets (value) or removes (null). */
type HeaderChange = [name: string, value: string | null];

/**
 * helmet's headers, worked out once at start-up: with the options the service uses they do not
 * depend on the request, and helmet would otherwise rebuild them (the Content-Security-Policy
 * string among them) through a chain of a dozen middleware functions on every request.
 */
export function securityHeaders(options: HelmetOptions): (res: Response) => void {
  const changes: HeaderChange[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => changes.push([name, String(value)]),
    removeHeader: (name: string) => changes.push([name, null]),
  };
  let failure: unknown = null;
  helmet(options)({} as Request, recorder as unknown as Response, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure !== null) throw failure instanceof Error ? failure : new Error(String(failure));
  return (res) => {
    for (const [name, value] of changes) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
  };
}
