import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, ReferenceColumn } from '../../database/columns.js';

export const SESSION_STAGES = ['second-factor', 'signed-in'] as const;
/** `second-factor`: the password was right, the TOTP or recovery code is still to come. */
export type SessionStage = (typeof SESSION_STAGES)[number];

/** A console sign-in. The browser holds the id; only its SHA-256 is stored. */
@Entity('operator_sessions')
export class OperatorSessionEntity {
  /** SHA-256 of the session id, hex. */
  @PrimaryColumn({ name: 'id_hash', type: 'varchar', length: 64 })
  idHash!: string;

  @Index('ix_operator_sessions_operator')
  @ReferenceColumn('operator_id')
  operatorId!: string;

  @Column({ type: 'varchar', length: 16 })
  stage!: SessionStage;

  /** The operator's rights_version when the session began: once it moves on, the session is over. */
  @Column({ name: 'rights_version', type: 'int' })
  rightsVersion!: number;

  /** A TOTP seed shown for enrolment and not yet confirmed, sealed like the operator's. */
  @Column({ name: 'pending_totp_secret', type: 'varchar', length: 512, nullable: true })
  pendingTotpSecret!: string | null;

  /** The challenge of the passkey ceremony this session started (registration or sign-in), base64url; used once. */
  @Column({ name: 'webauthn_challenge', type: 'varchar', length: 128, nullable: true })
  webauthnChallenge!: string | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('last_seen_at')
  lastSeenAt!: Date;

  @Index('ix_operator_sessions_expires')
  @DateTimeColumn('expires_at')
  expiresAt!: Date;

  @Column({ name: 'ip_address', type: 'varchar', length: 64 })
  ipAddress!: string;

  @Column({ name: 'user_agent', type: 'varchar', length: 255 })
  userAgent!: string;
}
