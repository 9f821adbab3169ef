import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, ID_LENGTH } from '../../database/columns.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH, type StoredAnswer } from '../idempotency.rules.js';

/**
 * One Idempotency-Key of one API token, with the answer its first request got. The primary key
 * (token, key) is the unique index that lets exactly one request take a key.
 */
@Entity('idempotency_keys')
@Index('idx_idempotency_keys_created_at', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'token_id', type: 'varchar', length: ID_LENGTH })
  tokenId!: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: IDEMPOTENCY_KEY_MAX_LENGTH })
  key!: string;

  /** Hex SHA-256 of the request (method, path, query, body): see requestFingerprint. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  /**
   * null only inside the transaction that took the key; committed rows always have their answer.
   * JSON (LONGTEXT on MariaDB), since an answer may outgrow MySQL's 64 KiB TEXT.
   */
  @Column({ type: 'json', nullable: true })
  answer!: StoredAnswer | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;
}
