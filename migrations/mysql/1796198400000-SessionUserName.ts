import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The User-Name a NAS reported for a session: a Disconnect or CoA-Request must carry the name the
 * NAS holds, which may differ from the user's username (another case, or a username changed since).
 */
export class SessionUserName1796198400000 implements MigrationInterface {
  name = 'SessionUserName1796198400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `sessions` ADD `user_name` varchar(253) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `sessions` DROP COLUMN `user_name`');
  }
}
