import type { MigrationInterface, QueryRunner } from 'typeorm';
import { fillUserSearchKeys } from '../shared/user-search-keys.js';

/**
 * The list's search (`q`): folded keys of name, username, email and phone on each venue row, each
 * with a (venue, key) index, so a prefix is one index range within the venue. Unlike the uniqueness
 * keys they stay set while the user is expired. Each index also holds the status, creation time and
 * id, so a search range is read from the index alone. Existing rows are filled from their users.
 */
export class UserSearchKeys1797148800000 implements MigrationInterface {
  name = 'UserSearchKeys1797148800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`hotspot_user_venues\`
        ADD \`search_name\` varchar(255) NULL,
        ADD \`search_username\` varchar(64) NULL,
        ADD \`search_email\` varchar(254) NULL,
        ADD \`search_phone\` varchar(16) NULL`,
    );
    await fillUserSearchKeys(queryRunner);
    await queryRunner.query(
      `ALTER TABLE \`hotspot_user_venues\`
        ADD INDEX \`idx_user_venues_search_name\` (\`venue_id\`, \`search_name\`, \`user_status\`, \`user_created_at\`, \`user_id\`),
        ADD INDEX \`idx_user_venues_search_username\` (\`venue_id\`, \`search_username\`, \`user_status\`, \`user_created_at\`, \`user_id\`),
        ADD INDEX \`idx_user_venues_search_email\` (\`venue_id\`, \`search_email\`, \`user_status\`, \`user_created_at\`, \`user_id\`),
        ADD INDEX \`idx_user_venues_search_phone\` (\`venue_id\`, \`search_phone\`, \`user_status\`, \`user_created_at\`, \`user_id\`)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`hotspot_user_venues\`
        DROP INDEX \`idx_user_venues_search_name\`,
        DROP INDEX \`idx_user_venues_search_username\`,
        DROP INDEX \`idx_user_venues_search_email\`,
        DROP INDEX \`idx_user_venues_search_phone\`,
        DROP COLUMN \`search_name\`,
        DROP COLUMN \`search_username\`,
        DROP COLUMN \`search_email\`,
        DROP COLUMN \`search_phone\``,
    );
  }
}
