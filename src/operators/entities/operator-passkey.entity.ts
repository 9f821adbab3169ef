import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, ReferenceColumn } from '../../database/columns.js';

/**
 * A passkey (WebAuthn credential) an operator registered as a second factor: the authenticator's
 * credential id and public key, and its signature counter. Nothing here is secret.
 */
@Entity('operator_passkeys')
export class OperatorPasskeyEntity {
  @IdColumn()
  id!: string;

  @Index('ix_operator_passkeys_operator')
  @ReferenceColumn('operator_id')
  operatorId!: string;

  /** The credential id, base64url, as the browser reports it. */
  @Index('uq_operator_passkeys_credential', { unique: true })
  @Column({ name: 'credential_id', type: 'varchar', length: 512 })
  credentialId!: string;

  /** The COSE public key, base64url. */
  @Column({ name: 'public_key', type: 'varchar', length: 1024 })
  publicKey!: string;

  /** The authenticator's signature counter at its last use (0 for those that keep none). */
  @Column({ name: 'sign_count', type: 'bigint' })
  signCount!: string;

  /** How the browser may reach the authenticator (usb, internal, hybrid…), as it reported. */
  @Column({ type: 'simple-json', nullable: true })
  transports!: string[] | null;

  /** The operator's name for it ("Laptop"). */
  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('last_used_at', { nullable: true })
  lastUsedAt!: Date | null;
}
