import type { MigrationInterface, QueryRunner } from 'typeorm';

const INDEXES = [
  ['idx_login_attempts_venue', 'venue_id'],
  ['idx_login_attempts_user', 'user_id'],
  ['idx_login_attempts_username', 'username'],
  ['idx_login_attempts_mac', 'mac_address'],
] as const;

/** Login attempts by venue, user, username or MAC, newest first (see the mysql migration of the same name). */
export class LoginAttemptsLookup1796544000000 implements MigrationInterface {
  name = 'LoginAttemptsLookup1796544000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [index, column] of INDEXES) {
      await queryRunner.query(`CREATE INDEX "${index}" ON "login_attempts" ("${column}", "created_at")`);
    }
    await queryRunner.query(`UPDATE "login_attempts" SET "reason" = 'unknownNas' WHERE "reason" = 'unknown NAS'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "login_attempts" SET "reason" = 'unknown NAS' WHERE "reason" = 'unknownNas'`);
    for (const [index] of INDEXES) await queryRunner.query(`DROP INDEX "${index}"`);
  }
}
