import type { NasVendor } from './nas-rules.js';
import type { NasClient } from './nas.service.js';

/** A NAS as the command line prints it (never its secret). */
export interface NasJson {
  id: string;
  venueId: string;
  name: string;
  ipAddress: string;
  coaPort: number;
  vendor: NasVendor;
  requireMessageAuthenticator: boolean;
  createdAt: string;
}

export function toNasJson(nas: NasClient): NasJson {
  return {
    id: nas.id,
    venueId: nas.venueId,
    name: nas.name,
    ipAddress: nas.ipAddress,
    coaPort: nas.coaPort,
    vendor: nas.vendor,
    requireMessageAuthenticator: nas.requireMessageAuthenticator,
    createdAt: nas.createdAt.toISOString(),
  };
}
