import type { MigrationInterface, QueryRunner } from 'typeorm';
import { fillAttemptUsernames, fillNameWords, reversedSql } from '../shared/desk-search-keys.js';

/** The front desk's search (see the mysql migration of the same name). */
export class DeskSearch1797753610000 implements MigrationInterface {
  name = 'DeskSearch1797753610000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const concat = (parts: string[]) => parts.join(' || ');
    await queryRunner.query('ALTER TABLE "hotspot_user_venues" ADD COLUMN "search_phone_suffix" varchar(16)');
    await queryRunner.query(
      `UPDATE "hotspot_user_venues" SET "search_phone_suffix" = ${reversedSql('search_phone', 16, concat)}
       WHERE "search_phone" IS NOT NULL`,
    );
    await queryRunner.query(
      'CREATE INDEX "idx_user_venues_search_phone_suffix" ON "hotspot_user_venues" ("venue_id", "search_phone_suffix", "user_status", "user_created_at", "user_id")',
    );
    for (const table of ['hotspot_users', 'devices']) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "mac_reversed" varchar(17)`);
      await queryRunner.query(
        `UPDATE "${table}" SET "mac_reversed" = ${reversedSql('mac_address', 17, concat)} WHERE "mac_address" IS NOT NULL`,
      );
      await queryRunner.query(`CREATE INDEX "idx_${table}_mac_reversed" ON "${table}" ("mac_reversed")`);
    }
    await queryRunner.query(
      `CREATE TABLE "hotspot_user_name_words" (
        "user_id" varchar(36) NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "word" varchar(64) NOT NULL,
        "user_status" varchar(16) NOT NULL,
        "user_created_at" datetime(3) NOT NULL,
        CONSTRAINT "fk_user_name_words_user" FOREIGN KEY ("user_id") REFERENCES "hotspot_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("user_id", "venue_id", "word")
      )`,
    );
    await fillNameWords(queryRunner);
    await queryRunner.query(
      'CREATE INDEX "idx_user_name_words_search" ON "hotspot_user_name_words" ("venue_id", "word", "user_status", "user_created_at", "user_id")',
    );
    await queryRunner.query('ALTER TABLE "login_attempts" ADD COLUMN "search_username" varchar(253)');
    await fillAttemptUsernames(queryRunner);
    await queryRunner.query(
      'CREATE INDEX "idx_login_attempts_search_username" ON "login_attempts" ("search_username", "created_at")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_login_attempts_search_username"');
    await queryRunner.query('ALTER TABLE "login_attempts" DROP COLUMN "search_username"');
    await queryRunner.query('DROP TABLE "hotspot_user_name_words"');
    for (const table of ['devices', 'hotspot_users']) {
      await queryRunner.query(`DROP INDEX "idx_${table}_mac_reversed"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "mac_reversed"`);
    }
    await queryRunner.query('DROP INDEX "idx_user_venues_search_phone_suffix"');
    await queryRunner.query('ALTER TABLE "hotspot_user_venues" DROP COLUMN "search_phone_suffix"');
  }
}
