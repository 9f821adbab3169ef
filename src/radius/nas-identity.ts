import type { NasVendor } from '../nas/nas-rules.js';

/** The registered NAS a FreeRADIUS request comes from, as the service uses it. */
export interface RadiusNas {
  id: string;
  name: string;
  venueId: string;
  /** The vendor hint (`nas add/set --vendor`): which attributes tell this NAS a plan's limits. */
  vendor: NasVendor;
  /** The packet's source address as FreeRADIUS saw it (X-Radius-Client-Ip). */
  sourceIp?: string;
  /** Registered as a network: each address in it is a NAS of its own to Disconnect and Accounting-On. */
  network?: boolean;
}

/** The headers the shipped FreeRADIUS configuration adds to every rest call. */
export const NAS_NAME_HEADER = 'x-radius-client';
export const NAS_IP_HEADER = 'x-radius-client-ip';
