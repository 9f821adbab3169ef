import type { EntityManager } from 'typeorm';

/** Where and how a Disconnect/CoA-Request for one session goes. */
export interface DisconnectTarget {
  name: string;
  vendor: string;
  /** UDP port of the NAS's RFC 5176 listener; 0: it has none. */
  coaPort: number;
  /** False when the NAS is known to refuse CoA-Requests (it takes Disconnects only). */
  acceptsCoa: boolean;
  secret: string;
  /**
   * The address to send to: the registered one, or for a NAS registered as a network, the address
   * recorded at accounting time that lies in it. Null when there is none.
   */
  host: string | null;
}

/** What the session recorded about its NAS's address at accounting time. */
export interface RecordedNasAddress {
  nasSourceIp: string | null;
  nasIpAddress: string | null;
}

/**
 * The NAS registry as the RADIUS dispatcher needs it. The registry sits above the unauth jobs, so it
 * provides this (token NAS_DIRECTORY) rather than the jobs importing it.
 */
export interface NasDirectory {
  /** The registered NAS `nasClientId`, with its secret in clear; null when it is no longer registered. */
  disconnectTarget(nasClientId: string, recorded: RecordedNasAddress): Promise<DisconnectTarget | null>;
  /** Marks the NAS as not accepting CoA; true when it was marked as accepting until now. */
  markRefusingCoa(nasClientId: string): Promise<boolean>;
  /** Of the NASes `nasClientIds`, those marked as not accepting CoA, read through the caller's transaction. */
  refusingCoa(em: EntityManager, nasClientIds: readonly string[]): Promise<Set<string>>;
}

export const NAS_DIRECTORY = Symbol('NAS_DIRECTORY');
