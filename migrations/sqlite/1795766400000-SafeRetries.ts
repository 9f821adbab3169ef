import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Safe retries: the Idempotency-Keys of each token with the answer they replay, and the version of
 * each user (its ETag), 1 for the users that exist already. The column is added in place: the
 * generated rebuild of hotspot_users would drop the table its venue rows reference.
 */
export class SafeRetries1795766400000 implements MigrationInterface {
  name = 'SafeRetries1795766400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" (
        "token_id" varchar(36) NOT NULL,
        "idempotency_key" varchar(255) NOT NULL,
        "fingerprint" varchar(64) NOT NULL,
        "answer" json,
        "created_at" datetime(3) NOT NULL,
        PRIMARY KEY ("token_id", "idempotency_key")
      )`,
    );
    await queryRunner.query(`CREATE INDEX "idx_idempotency_keys_created_at" ON "idempotency_keys" ("created_at")`);
    await queryRunner.query(`ALTER TABLE "hotspot_users" ADD COLUMN "version" integer NOT NULL DEFAULT (1)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "hotspot_users" DROP COLUMN "version"`);
    await queryRunner.query(`DROP INDEX "idx_idempotency_keys_created_at"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
