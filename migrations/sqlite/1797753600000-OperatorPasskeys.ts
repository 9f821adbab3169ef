import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Operators' passkeys (WebAuthn credentials) and the challenge of a session's passkey ceremony. */
export class OperatorPasskeys1797753600000 implements MigrationInterface {
  name = 'OperatorPasskeys1797753600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "operator_passkeys" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "operator_id" varchar(36) NOT NULL,
        "credential_id" varchar(512) NOT NULL,
        "public_key" varchar(1024) NOT NULL,
        "sign_count" bigint NOT NULL,
        "transports" text,
        "name" varchar(100) NOT NULL,
        "created_at" datetime(3) NOT NULL,
        "last_used_at" datetime(3)
      )`,
    );
    await queryRunner.query(`CREATE INDEX "ix_operator_passkeys_operator" ON "operator_passkeys" ("operator_id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_operator_passkeys_credential" ON "operator_passkeys" ("credential_id")`,
    );
    await queryRunner.query('ALTER TABLE "operator_sessions" ADD COLUMN "webauthn_challenge" varchar(128)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "operator_sessions" DROP COLUMN "webauthn_challenge"');
    await queryRunner.query('DROP TABLE "operator_passkeys"');
  }
}
