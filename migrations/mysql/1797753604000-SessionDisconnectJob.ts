import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The unauth job whose Disconnect a session ended here still waits for its NAS to confirm (the
 * console's Online now keeps such sessions as "disconnecting, not confirmed"); the index finds those
 * few among every session ever recorded.
 */
export class SessionDisconnectJob1797753604000 implements MigrationInterface {
  name = 'SessionDisconnectJob1797753604000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `sessions` ADD `disconnect_job_id` varchar(36) NULL');
    await queryRunner.query('CREATE INDEX `idx_sessions_disconnect_job` ON `sessions` (`disconnect_job_id`)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `idx_sessions_disconnect_job` ON `sessions`');
    await queryRunner.query('ALTER TABLE `sessions` DROP COLUMN `disconnect_job_id`');
  }
}
