import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counter changes as rows of their own: a write inserts its change instead of updating the venue's
 * counter rows, which every write of the venue used to lock.
 */
export class VenueUserCountChanges1796284800000 implements MigrationInterface {
  name = 'VenueUserCountChanges1796284800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "venue_user_count_changes" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "user_status" varchar(16) NOT NULL,
        "bucket" integer NOT NULL,
        "delta" integer NOT NULL
      )`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_venue_user_count_changes_by_venue" ON "venue_user_count_changes" ("venue_id", "user_status", "bucket", "delta")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The changes not folded yet go into the counters first, or they would be lost with the table.
    await queryRunner.query(
      `INSERT INTO "venue_user_counts" ("venue_id", "user_status", "user_count")
       SELECT "venue_id", "user_status", SUM("delta") FROM "venue_user_count_changes" WHERE true GROUP BY "venue_id", "user_status"
       ON CONFLICT ("venue_id", "user_status") DO UPDATE SET "user_count" = "user_count" + excluded."user_count"`,
    );
    await queryRunner.query(
      `INSERT INTO "venue_user_buckets" ("venue_id", "bucket", "user_status", "user_count")
       SELECT "venue_id", "bucket", "user_status", SUM("delta") FROM "venue_user_count_changes" WHERE true GROUP BY "venue_id", "bucket", "user_status"
       ON CONFLICT ("venue_id", "bucket", "user_status") DO UPDATE SET "user_count" = "user_count" + excluded."user_count"`,
    );
    await queryRunner.query(`DROP INDEX "idx_venue_user_count_changes_by_venue"`);
    await queryRunner.query(`DROP TABLE "venue_user_count_changes"`);
  }
}
