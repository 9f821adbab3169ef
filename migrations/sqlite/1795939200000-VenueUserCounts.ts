import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Per-venue user counts by status, and by status and hour of creation, filled from the existing venue rows. */
export class VenueUserCounts1795939200000 implements MigrationInterface {
  name = 'VenueUserCounts1795939200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "venue_user_counts" (
        "venue_id" varchar(64) NOT NULL,
        "user_status" varchar(16) NOT NULL,
        "user_count" integer NOT NULL,
        PRIMARY KEY ("venue_id", "user_status")
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE "venue_user_buckets" (
        "venue_id" varchar(64) NOT NULL,
        "bucket" integer NOT NULL,
        "user_status" varchar(16) NOT NULL,
        "user_count" integer NOT NULL,
        PRIMARY KEY ("venue_id", "bucket", "user_status")
      )`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_venue_user_buckets_by_status" ON "venue_user_buckets" ("venue_id", "user_status", "bucket", "user_count")`,
    );
    await queryRunner.query(
      `INSERT INTO "venue_user_counts" ("venue_id", "user_status", "user_count")
       SELECT "venue_id", "user_status", COUNT(*) FROM "hotspot_user_venues" GROUP BY "venue_id", "user_status"`,
    );
    // Stored datetimes are UTC text: seconds since 1970, in whole hours.
    await queryRunner.query(
      `INSERT INTO "venue_user_buckets" ("venue_id", "bucket", "user_status", "user_count")
       SELECT "venue_id", CAST(strftime('%s', "user_created_at") AS integer) / 3600 AS "hour", "user_status", COUNT(*)
       FROM "hotspot_user_venues" GROUP BY "venue_id", "hour", "user_status"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_venue_user_buckets_by_status"`);
    await queryRunner.query(`DROP TABLE "venue_user_buckets"`);
    await queryRunner.query(`DROP TABLE "venue_user_counts"`);
  }
}
