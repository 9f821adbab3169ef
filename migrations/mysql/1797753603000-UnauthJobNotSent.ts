import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a done unauth job left sessions unsent (no dispatcher that tells NASes, a NAS without CoA port…),
 * so that such jobs are counted and listed apart from those that reached their NAS. Jobs done before
 * it that only the log dispatcher took, with sessions, are marked `no-radius-dispatcher`; other earlier
 * jobs keep null (their pages still judge them from their deliveries).
 */
export class UnauthJobNotSent1797753603000 implements MigrationInterface {
  name = 'UnauthJobNotSent1797753603000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `unauth_jobs` ADD `not_sent_reason` varchar(24) NULL');
    await queryRunner.query(
      "UPDATE `unauth_jobs` SET `not_sent_reason` = 'no-radius-dispatcher' WHERE `status` = 'done' AND `sessions` <> '[]' " +
        `AND \`deliveries\` LIKE '{"log":{%' AND \`deliveries\` NOT LIKE '%,"webhook":%' AND \`deliveries\` NOT LIKE '%,"radius":%'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `unauth_jobs` DROP COLUMN `not_sent_reason`');
  }
}
