import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When a venue's guests check out, `HH:MM` in its time zone; null until set (the service then uses 12:00). */
export class VenueCheckOutTime1797753602000 implements MigrationInterface {
  name = 'VenueCheckOutTime1797753602000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `venues` ADD `check_out_time` varchar(5) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `venues` DROP COLUMN `check_out_time`');
  }
}
