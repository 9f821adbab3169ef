import type { MigrationInterface, QueryRunner } from 'typeorm';
import { fillUserSearchKeys } from '../shared/user-search-keys.js';

/** The list's search keys and their indexes (see the mysql migration of the same name). */
export class UserSearchKeys1797148800000 implements MigrationInterface {
  name = 'UserSearchKeys1797148800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [column, length] of COLUMNS) {
      await queryRunner.query(`ALTER TABLE "hotspot_user_venues" ADD COLUMN "${column}" varchar(${length})`);
    }
    await fillUserSearchKeys(queryRunner);
    for (const [column] of COLUMNS) {
      await queryRunner.query(
        `CREATE INDEX "idx_user_venues_${column}" ON "hotspot_user_venues" ("venue_id", "${column}", "user_status", "user_created_at", "user_id")`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [column] of COLUMNS) {
      await queryRunner.query(`DROP INDEX "idx_user_venues_${column}"`);
      await queryRunner.query(`ALTER TABLE "hotspot_user_venues" DROP COLUMN "${column}"`);
    }
  }
}

const COLUMNS = [
  ['search_name', 255],
  ['search_username', 64],
  ['search_email', 254],
  ['search_phone', 16],
] as const;
