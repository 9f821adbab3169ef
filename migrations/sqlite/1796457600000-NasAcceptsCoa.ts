import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Whether a NAS takes CoA-Requests (see the mysql migration of the same name). */
export class NasAcceptsCoa1796457600000 implements MigrationInterface {
  name = 'NasAcceptsCoa1796457600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "nas_clients" ADD COLUMN "accepts_coa" boolean NOT NULL DEFAULT (1)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "nas_clients" DROP COLUMN "accepts_coa"`);
  }
}
