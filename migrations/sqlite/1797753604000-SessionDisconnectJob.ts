import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The unauth job a session's unconfirmed Disconnect waits on (see the mysql migration of the same name). */
export class SessionDisconnectJob1797753604000 implements MigrationInterface {
  name = 'SessionDisconnectJob1797753604000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "disconnect_job_id" varchar(36)`);
    await queryRunner.query('CREATE INDEX "idx_sessions_disconnect_job" ON "sessions" ("disconnect_job_id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_sessions_disconnect_job"');
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "disconnect_job_id"`);
  }
}
