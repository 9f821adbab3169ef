import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-time passwords of operators expire. An operator still holding one gets the default lifetime
 * (72 hours) from its last change, so a password handed out long ago stops working at once.
 */
export class OneTimePasswordExpiry1797667200000 implements MigrationInterface {
  name = 'OneTimePasswordExpiry1797667200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "operators" ADD COLUMN "one_time_password_expires_at" datetime(3)');
    await queryRunner.query(
      `UPDATE "operators" SET "one_time_password_expires_at" = strftime('%Y-%m-%d %H:%M:%f', "updated_at", '+72 hours') WHERE "must_change_password" = 1`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "operators" DROP COLUMN "one_time_password_expires_at"');
  }
}
