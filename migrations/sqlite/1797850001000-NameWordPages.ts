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
    await queryRunner.query(
      'ALTER TABLE "hotspot_user_name_words" ADD COLUMN "shares_initial" boolean NOT NULL DEFAULT (0)',
    );
    await queryRunner.query(
      `UPDATE "hotspot_user_name_words" SET "shares_initial" = 1
        WHERE EXISTS (SELECT 1 FROM "hotspot_user_name_words" o
                       WHERE o."user_id" = "hotspot_user_name_words"."user_id"
                         AND o."venue_id" = "hotspot_user_name_words"."venue_id"
                         AND o."word" <> "hotspot_user_name_words"."word"
                         AND SUBSTR(o."word", 1, 1) = SUBSTR("hotspot_user_name_words"."word", 1, 1))`,
    );
    await queryRunner.query('DROP INDEX "idx_user_name_words_search"');
    await queryRunner.query(
      'CREATE INDEX "idx_user_name_words_search" ON "hotspot_user_name_words" ("venue_id", "word", "user_status", "user_created_at", "user_id", "shares_initial")',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_user_name_words_newest" ON "hotspot_user_name_words" ("venue_id", "user_created_at", "user_id", "word", "user_status")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_user_name_words_newest"');
    await queryRunner.query('DROP INDEX "idx_user_name_words_search"');
    await queryRunner.query(
      'CREATE INDEX "idx_user_name_words_search" ON "hotspot_user_name_words" ("venue_id", "word", "user_status", "user_created_at", "user_id")',
    );
    await queryRunner.query('ALTER TABLE "hotspot_user_name_words" DROP COLUMN "shares_initial"');
  }
}
