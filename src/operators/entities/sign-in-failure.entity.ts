import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../database/columns.js';

/**
 * Failed console sign-ins in a row for one email (lower-cased), whether or not an operator has it:
 * an unknown email slows down exactly like a known one, so the delay tells nothing. In the database,
 * so every instance applies the same delay.
 */
@Entity('console_sign_in_failures')
export class SignInFailureEntity {
  @PrimaryColumn({ name: 'email_key', type: 'varchar', length: 254 })
  emailKey!: string;

  @Column({ type: 'int' })
  failures!: number;

  @Index('ix_console_sign_in_failures_last')
  @DateTimeColumn('last_failure_at')
  lastFailureAt!: Date;

  /** No attempt for this email is checked before this time. */
  @DateTimeColumn('retry_at')
  retryAt!: Date;
}
