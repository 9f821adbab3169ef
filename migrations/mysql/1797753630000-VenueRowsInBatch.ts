import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a venue row's user is a batch's account (a voucher), so that a venue's list without them
 * is one range of an index: the column, filled for the rows already there from their user's batch,
 * then the two list indexes that include it (all statuses, and by status).
 */
export class VenueRowsInBatch1797753630000 implements MigrationInterface {
  name = 'VenueRowsInBatch1797753630000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `hotspot_user_venues` ADD `in_batch` tinyint NOT NULL DEFAULT 0');
    await queryRunner.query(
      `UPDATE \`hotspot_user_venues\` uv JOIN \`hotspot_users\` u ON u.\`id\` = uv.\`user_id\`
          SET uv.\`in_batch\` = 1
        WHERE u.\`batch_id\` IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE \`hotspot_user_venues\`
        ADD INDEX \`idx_user_venues_guests\` (\`venue_id\`, \`in_batch\`, \`user_created_at\`, \`user_id\`),
        ADD INDEX \`idx_user_venues_guests_by_status\` (\`venue_id\`, \`in_batch\`, \`user_status\`, \`user_created_at\`, \`user_id\`)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `hotspot_user_venues` DROP INDEX `idx_user_venues_guests_by_status`, DROP INDEX `idx_user_venues_guests`, DROP COLUMN `in_batch`',
    );
  }
}
