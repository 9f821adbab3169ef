import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's validity counted from its first accepted RADIUS login (a voucher's "24 hours from the first
 * login"): valid_for in seconds, and first_login_at, when that login set expires_at.
 */
export class ValidityFromFirstLogin1797408000000 implements MigrationInterface {
  name = 'ValidityFromFirstLogin1797408000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `hotspot_users` ADD `valid_for` int NULL, ADD `first_login_at` datetime(3) NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `hotspot_users` DROP COLUMN `first_login_at`, DROP COLUMN `valid_for`');
  }
}
