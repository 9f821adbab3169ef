import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';
import { NAS_ADDRESS_MAX_LENGTH, type NasVendor } from '../nas-rules.js';

/** A NAS (access point, hotspot gateway) allowed to send RADIUS requests through FreeRADIUS. */
@Entity('nas_clients')
export class NasClientEntity {
  @IdColumn()
  id!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  /** The FreeRADIUS client shortname, passed back to the service as X-Radius-Client. */
  @Index('uq_nas_clients_name', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  name!: string;

  /**
   * An address or a CIDR network, IPv4 or IPv6, in one spelling (see parseNasAddress): the sources
   * FreeRADIUS accepts for this client. One NAS per address, as FreeRADIUS allows one client.
   */
  @Index('uq_nas_clients_ip_address', { unique: true })
  @Column({ name: 'ip_address', type: 'varchar', length: NAS_ADDRESS_MAX_LENGTH })
  ipAddress!: string;

  /** The shared secret, sealed (see secret-box.ts): never read this column directly. */
  @Column({ name: 'secret', type: 'varchar', length: 512 })
  storedSecret!: string;

  /** UDP port of the NAS's Disconnect/CoA listener; 0: it has none. */
  @Column({ name: 'coa_port', type: 'int' })
  coaPort!: number;

  @Column({ type: 'varchar', length: 16 })
  vendor!: NasVendor;

  @Column({ name: 'require_message_authenticator', type: 'boolean' })
  requireMessageAuthenticator!: boolean;

  /**
   * Whether the NAS takes CoA-Requests: false once it refused one as unsupported (CoA-NAK with
   * Error-Cause 401, 405 or 406) or when an operator said so; expiry changes then write no CoA job.
   */
  @Column({ name: 'accepts_coa', type: 'boolean', default: true })
  acceptsCoa!: boolean;

  @DateTimeColumn('created_at')
  createdAt!: Date;
}
