import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Service plans (see the mysql migration of the same name). */
export class Plans1797753700000 implements MigrationInterface {
  name = 'Plans1797753700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "plans" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "name" varchar(100) NOT NULL,
        "download_rate" bigint,
        "upload_rate" bigint,
        "quota_bytes" bigint,
        "quota_period" varchar(8),
        "daily_time_seconds" integer,
        "total_time_seconds" integer,
        "idle_timeout_seconds" integer,
        "max_sessions" integer,
        "max_devices" integer,
        "interim_interval_seconds" integer,
        "created_at" datetime(3) NOT NULL,
        "updated_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE "plan_venues" (
        "plan_id" varchar(36) NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "position" integer NOT NULL,
        CONSTRAINT "fk_plan_venues_plan" FOREIGN KEY ("plan_id") REFERENCES "plans" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("plan_id", "venue_id")
      )`,
    );
    await queryRunner.query('CREATE INDEX "idx_plan_venues_venue" ON "plan_venues" ("venue_id", "plan_id")');
    await queryRunner.query('ALTER TABLE "hotspot_users" ADD COLUMN "plan_id" varchar(36)');
    await queryRunner.query('CREATE INDEX "idx_hotspot_users_plan_id" ON "hotspot_users" ("plan_id")');
    await queryRunner.query('ALTER TABLE "hotspot_user_batches" ADD COLUMN "plan_id" varchar(36)');
    await queryRunner.query('CREATE INDEX "idx_user_batches_plan_id" ON "hotspot_user_batches" ("plan_id")');
    await queryRunner.query('ALTER TABLE "venues" ADD COLUMN "default_plan_id" varchar(36)');
    await queryRunner.query('CREATE INDEX "idx_venues_default_plan_id" ON "venues" ("default_plan_id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_venues_default_plan_id"');
    await queryRunner.query('ALTER TABLE "venues" DROP COLUMN "default_plan_id"');
    await queryRunner.query('DROP INDEX "idx_user_batches_plan_id"');
    await queryRunner.query('ALTER TABLE "hotspot_user_batches" DROP COLUMN "plan_id"');
    await queryRunner.query('DROP INDEX "idx_hotspot_users_plan_id"');
    await queryRunner.query('ALTER TABLE "hotspot_users" DROP COLUMN "plan_id"');
    await queryRunner.query('DROP TABLE "plan_venues"');
    await queryRunner.query('DROP TABLE "plans"');
  }
}
