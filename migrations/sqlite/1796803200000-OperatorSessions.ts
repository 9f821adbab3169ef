import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Console sessions, recovery codes and sign-in failures (see the mysql migration of the same name). */
export class OperatorSessions1796803200000 implements MigrationInterface {
  name = 'OperatorSessions1796803200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "operator_sessions" (
        "id_hash" varchar(64) PRIMARY KEY NOT NULL,
        "operator_id" varchar(36) NOT NULL,
        "stage" varchar(16) NOT NULL,
        "rights_version" integer NOT NULL,
        "pending_totp_secret" varchar(512),
        "created_at" datetime(3) NOT NULL,
        "last_seen_at" datetime(3) NOT NULL,
        "expires_at" datetime(3) NOT NULL,
        "ip_address" varchar(64) NOT NULL,
        "user_agent" varchar(255) NOT NULL
      )`,
    );
    await queryRunner.query(`CREATE INDEX "ix_operator_sessions_operator" ON "operator_sessions" ("operator_id")`);
    await queryRunner.query(`CREATE INDEX "ix_operator_sessions_expires" ON "operator_sessions" ("expires_at")`);
    await queryRunner.query(
      `CREATE TABLE "operator_recovery_codes" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "operator_id" varchar(36) NOT NULL,
        "code_hash" varchar(64) NOT NULL,
        "created_at" datetime(3) NOT NULL,
        "used_at" datetime(3)
      )`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_operator_recovery_codes_code" ON "operator_recovery_codes" ("operator_id", "code_hash")`,
    );
    await queryRunner.query(
      `CREATE TABLE "console_sign_in_failures" (
        "email_key" varchar(254) PRIMARY KEY NOT NULL,
        "failures" integer NOT NULL,
        "last_failure_at" datetime(3) NOT NULL,
        "retry_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_console_sign_in_failures_last" ON "console_sign_in_failures" ("last_failure_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "console_sign_in_failures"`);
    await queryRunner.query(`DROP TABLE "operator_recovery_codes"`);
    await queryRunner.query(`DROP TABLE "operator_sessions"`);
  }
}
