import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The User-Name a NAS reported for a session (see the mysql migration of the same name). */
export class SessionUserName1796198400000 implements MigrationInterface {
  name = 'SessionUserName1796198400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "user_name" varchar(253)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "user_name"`);
  }
}
