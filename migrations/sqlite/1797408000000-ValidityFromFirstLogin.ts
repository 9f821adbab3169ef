import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's validity from its first login (see the mysql migration of the same name). */
export class ValidityFromFirstLogin1797408000000 implements MigrationInterface {
  name = 'ValidityFromFirstLogin1797408000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "hotspot_users" ADD COLUMN "valid_for" integer');
    await queryRunner.query('ALTER TABLE "hotspot_users" ADD COLUMN "first_login_at" datetime(3)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "hotspot_users" DROP COLUMN "first_login_at"');
    await queryRunner.query('ALTER TABLE "hotspot_users" DROP COLUMN "valid_for"');
  }
}
