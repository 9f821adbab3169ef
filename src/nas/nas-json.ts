import type { NasClient } from './nas.service.js';

/** A NAS as the command line prints it (never its secret): its fields, the time as ISO 8601. */
export type NasJson = Omit<NasClient, 'createdAt'> & { createdAt: string };

export function toNasJson(nas: NasClient): NasJson {
  return { ...nas, createdAt: nas.createdAt.toISOString() };
}
