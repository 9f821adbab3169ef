import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's room (a hotel's "1204", "A-12"), and its search key on each venue row with a (venue, key)
 * index like the other keys'. No user has a room yet, so there is nothing to fill.
 */
export class UserRoom1797753601000 implements MigrationInterface {
  name = 'UserRoom1797753601000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `hotspot_users` ADD `room` varchar(32) NULL');
    await queryRunner.query(
      `ALTER TABLE \`hotspot_user_venues\`
        ADD \`search_room\` varchar(32) NULL,
        ADD INDEX \`idx_user_venues_search_room\` (\`venue_id\`, \`search_room\`, \`user_status\`, \`user_created_at\`, \`user_id\`)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `hotspot_user_venues` DROP INDEX `idx_user_venues_search_room`, DROP COLUMN `search_room`',
    );
    await queryRunner.query('ALTER TABLE `hotspot_users` DROP COLUMN `room`');
  }
}
