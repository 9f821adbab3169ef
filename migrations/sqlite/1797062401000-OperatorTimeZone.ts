import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The time zone an operator reads the console's dates in (My account); null: UTC. */
export class OperatorTimeZone1797062401000 implements MigrationInterface {
  name = 'OperatorTimeZone1797062401000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "operators" ADD COLUMN "time_zone" varchar(64)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "operators" DROP COLUMN "time_zone"');
  }
}
