import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The venue rows by username alone: a RADIUS login whose name is not in the NAS's venue looks for
 * it in the other venues (to say "not valid at this location"), which scanned every venue row.
 */
export class UsernameKeyIndex1796025600000 implements MigrationInterface {
  name = 'UsernameKeyIndex1796025600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX `idx_user_venues_username_key` ON `hotspot_user_venues` (`username_key`, `user_id`)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `idx_user_venues_username_key` ON `hotspot_user_venues`');
  }
}
