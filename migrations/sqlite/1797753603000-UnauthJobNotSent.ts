import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Why a done unauth job left sessions unsent (see the mysql migration of the same name). */
export class UnauthJobNotSent1797753603000 implements MigrationInterface {
  name = 'UnauthJobNotSent1797753603000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "unauth_jobs" ADD COLUMN "not_sent_reason" varchar(24)`);
    await queryRunner.query(
      `UPDATE "unauth_jobs" SET "not_sent_reason" = 'no-radius-dispatcher' WHERE "status" = 'done' AND "sessions" <> '[]' ` +
        `AND "deliveries" LIKE '{"log":{%' AND "deliveries" NOT LIKE '%,"webhook":%' AND "deliveries" NOT LIKE '%,"radius":%'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "unauth_jobs" DROP COLUMN "not_sent_reason"`);
  }
}
