import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When the NAS said a session is over (see the mysql migration of the same name). */
export class SessionNasStopped1796371200000 implements MigrationInterface {
  name = 'SessionNasStopped1796371200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "nas_stopped_at" datetime(3)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "nas_stopped_at"`);
  }
}
