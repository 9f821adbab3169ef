import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Batches of generated accounts (see the mysql migration of the same name). */
export class UserBatches1797580800000 implements MigrationInterface {
  name = 'UserBatches1797580800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "hotspot_user_batches" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "label" varchar(100),
        "prefix" varchar(16) NOT NULL,
        "count" integer NOT NULL,
        "password_length" integer NOT NULL,
        "expires_at" datetime(3),
        "valid_for" integer,
        "created_by_type" varchar(16) NOT NULL,
        "created_by_id" varchar(64),
        "created_by_name" varchar(254),
        "created_at" datetime(3) NOT NULL,
        "first_revealed_at" datetime(3),
        "passwords_erased_at" datetime(3)
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "idx_user_batches_venue" ON "hotspot_user_batches" ("venue_id", "created_at", "id")',
    );
    await queryRunner.query('CREATE INDEX "idx_user_batches_revealed" ON "hotspot_user_batches" ("first_revealed_at")');
    await queryRunner.query(
      `CREATE TABLE "hotspot_user_batch_passwords" (
        "user_id" varchar(36) PRIMARY KEY NOT NULL,
        "batch_id" varchar(36) NOT NULL,
        "sealed_password" varchar(255) NOT NULL,
        CONSTRAINT "fk_batch_passwords_user" FOREIGN KEY ("user_id") REFERENCES "hotspot_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
    );
    await queryRunner.query('CREATE INDEX "idx_batch_passwords_batch" ON "hotspot_user_batch_passwords" ("batch_id")');
    await queryRunner.query('ALTER TABLE "hotspot_users" ADD COLUMN "batch_id" varchar(36)');
    await queryRunner.query('CREATE INDEX "idx_hotspot_users_batch_id" ON "hotspot_users" ("batch_id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_hotspot_users_batch_id"');
    await queryRunner.query('ALTER TABLE "hotspot_users" DROP COLUMN "batch_id"');
    await queryRunner.query('DROP TABLE "hotspot_user_batch_passwords"');
    await queryRunner.query('DROP TABLE "hotspot_user_batches"');
  }
}
