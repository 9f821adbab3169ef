import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Whether a venue row's user is a batch's account (see the mysql migration of the same name). */
export class VenueRowsInBatch1797753630000 implements MigrationInterface {
  name = 'VenueRowsInBatch1797753630000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "hotspot_user_venues" ADD COLUMN "in_batch" boolean NOT NULL DEFAULT (0)');
    await queryRunner.query(
      `UPDATE "hotspot_user_venues" SET "in_batch" = 1
        WHERE "user_id" IN (SELECT "id" FROM "hotspot_users" WHERE "batch_id" IS NOT NULL)`,
    );
    await queryRunner.query(
      'CREATE INDEX "idx_user_venues_guests" ON "hotspot_user_venues" ("venue_id", "in_batch", "user_created_at", "user_id")',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_user_venues_guests_by_status" ON "hotspot_user_venues" ("venue_id", "in_batch", "user_status", "user_created_at", "user_id")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_user_venues_guests_by_status"');
    await queryRunner.query('DROP INDEX "idx_user_venues_guests"');
    await queryRunner.query('ALTER TABLE "hotspot_user_venues" DROP COLUMN "in_batch"');
  }
}
