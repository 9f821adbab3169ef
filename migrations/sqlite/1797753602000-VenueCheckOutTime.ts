import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A venue's check-out time (see the mysql migration of the same name). */
export class VenueCheckOutTime1797753602000 implements MigrationInterface {
  name = 'VenueCheckOutTime1797753602000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "venues" ADD COLUMN "check_out_time" varchar(5)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "venues" DROP COLUMN "check_out_time"');
  }
}
