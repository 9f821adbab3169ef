import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, ReferenceColumn } from '../../database/columns.js';

/** One of an operator's ten single-use recovery codes, stored as its SHA-256 (the codes carry 80 random bits). */
@Entity('operator_recovery_codes')
@Index('uq_operator_recovery_codes_code', ['operatorId', 'codeHash'], { unique: true })
export class OperatorRecoveryCodeEntity {
  @IdColumn()
  id!: string;

  @ReferenceColumn('operator_id')
  operatorId!: string;

  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash!: string;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('used_at', { nullable: true })
  usedAt!: Date | null;
}
