import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the NAS said a session is over (its Accounting-Stop, or an Accounting-On/Off of the NAS): a
 * Disconnect still owed for that session is settled by it rather than sent again.
 */
export class SessionNasStopped1796371200000 implements MigrationInterface {
  name = 'SessionNasStopped1796371200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `sessions` ADD `nas_stopped_at` datetime(3) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `sessions` DROP COLUMN `nas_stopped_at`');
  }
}
