import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, ID_LENGTH } from '../../database/columns.js';

/**
 * A console form token that was used: written in the transaction of the change it brought, so a
 * second POST of the same form finds it and is told what the first one did. With it, what the result
 * page of that change shows: the link, details that are not secret, and a secret result (a generated
 * password, an API token's value, recovery codes) sealed like NAS secrets, for a few minutes only.
 * Rows go with their session (sign-out) or once no session can be that old.
 */
@Entity('console_form_tokens')
export class ConsoleFormTokenEntity {
  /** SHA-256 of the token, hex: the token itself is never stored. */
  @PrimaryColumn({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  /** The result's id, in the address of the page that shows it (the token never is). */
  @Index('uq_console_form_tokens_result', { unique: true })
  @Column({ name: 'result_id', type: 'varchar', length: ID_LENGTH })
  resultId!: string;

  /** The console session that used it (its id's SHA-256, as operator_sessions.id_hash). */
  @Index('ix_console_form_tokens_session')
  @Column({ name: 'session_hash', type: 'varchar', length: 64 })
  sessionHash!: string;

  /** The console page of what the change made or changed; null until the change's result is known. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  link!: string | null;

  /** What the result page shows besides the secret (never a secret). */
  @Column({ type: 'simple-json', nullable: true })
  details!: Record<string, string | number | boolean | null> | null;

  /** The secret result, sealed (AES-256-GCM under SECRETS_KEY, bound to result_id); null once its window is over. */
  @Column({ name: 'sealed_secret', type: 'varchar', length: 2048, nullable: true })
  sealedSecret!: string | null;

  /** Until when the result page shows the secret. */
  @Index('ix_console_form_tokens_secret_until')
  @DateTimeColumn('secret_until', { nullable: true })
  secretUntil!: Date | null;

  @Index('ix_console_form_tokens_created')
  @DateTimeColumn('created_at')
  createdAt!: Date;
}
