import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's room (see the mysql migration of the same name). */
export class UserRoom1797753601000 implements MigrationInterface {
  name = 'UserRoom1797753601000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "hotspot_users" ADD COLUMN "room" varchar(32)');
    await queryRunner.query('ALTER TABLE "hotspot_user_venues" ADD COLUMN "search_room" varchar(32)');
    await queryRunner.query(
      'CREATE INDEX "idx_user_venues_search_room" ON "hotspot_user_venues" ("venue_id", "search_room", "user_status", "user_created_at", "user_id")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_user_venues_search_room"');
    await queryRunner.query('ALTER TABLE "hotspot_user_venues" DROP COLUMN "search_room"');
    await queryRunner.query('ALTER TABLE "hotspot_users" DROP COLUMN "room"');
  }
}
