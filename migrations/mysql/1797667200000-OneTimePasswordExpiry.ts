import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-time passwords of operators expire. An operator still holding one gets the default lifetime
 * (72 hours) from its last change, so a password handed out long ago stops working at once.
 */
export class OneTimePasswordExpiry1797667200000 implements MigrationInterface {
  name = 'OneTimePasswordExpiry1797667200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `operators` ADD `one_time_password_expires_at` datetime(3) NULL');
    await queryRunner.query(
      'UPDATE `operators` SET `one_time_password_expires_at` = `updated_at` + INTERVAL 72 HOUR WHERE `must_change_password` = 1',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `operators` DROP COLUMN `one_time_password_expires_at`');
  }
}
