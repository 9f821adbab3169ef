import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a NAS takes CoA-Requests. A NAS that refuses one as unsupported (CoA-NAK with Error-Cause
 * 401, 405 or 406) is marked so, and expiry changes of its sessions then write no CoA job.
 */
export class NasAcceptsCoa1796457600000 implements MigrationInterface {
  name = 'NasAcceptsCoa1796457600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `nas_clients` ADD `accepts_coa` tinyint NOT NULL DEFAULT 1');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `nas_clients` DROP COLUMN `accepts_coa`');
  }
}
