import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A search by a common name word, cheaper: each word row says whether another word of the user's name
 * starts with the same character (shares_initial, filled for the rows already there), so a word's
 * users are counted from its index range without setting the rows apart; the search index carries it;
 * and a second index keeps a venue's words newest first, so a common word's page is walked, not sorted.
 */
export class NameWordPages1797850001000 implements MigrationInterface {
  name = 'NameWordPages1797850001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `hotspot_user_name_words` ADD `shares_initial` tinyint NOT NULL DEFAULT 0');
    await queryRunner.query(
      `UPDATE \`hotspot_user_name_words\` w JOIN \`hotspot_user_name_words\` o
          ON o.\`user_id\` = w.\`user_id\` AND o.\`venue_id\` = w.\`venue_id\` AND o.\`word\` <> w.\`word\`
         AND SUBSTR(o.\`word\`, 1, 1) = SUBSTR(w.\`word\`, 1, 1)
         SET w.\`shares_initial\` = 1`,
    );
    await queryRunner.query(
      `ALTER TABLE \`hotspot_user_name_words\`
        DROP INDEX \`idx_user_name_words_search\`,
        ADD INDEX \`idx_user_name_words_search\` (\`venue_id\`, \`word\`, \`user_status\`, \`user_created_at\`, \`user_id\`, \`shares_initial\`),
        ADD INDEX \`idx_user_name_words_newest\` (\`venue_id\`, \`user_created_at\`, \`user_id\`, \`word\`, \`user_status\`)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`hotspot_user_name_words\`
        DROP INDEX \`idx_user_name_words_newest\`,
        DROP INDEX \`idx_user_name_words_search\`,
        ADD INDEX \`idx_user_name_words_search\` (\`venue_id\`, \`word\`, \`user_status\`, \`user_created_at\`, \`user_id\`),
        DROP COLUMN \`shares_initial\``,
    );
  }
}
