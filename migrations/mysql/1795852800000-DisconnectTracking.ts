import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RFC 5176 delivery: where a session's NAS can be reached (NAS-IP-Address and the source address of
 * its accounting), each dispatcher's delivery and each session's outcome on the job, and the new
 * expiresAt a CoA job carries.
 */
export class DisconnectTracking1795852800000 implements MigrationInterface {
  name = 'DisconnectTracking1795852800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`sessions\`
        ADD \`nas_ip_address\` varchar(45) NULL,
        ADD \`nas_source_ip\` varchar(45) NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE \`unauth_jobs\`
        ADD \`deliveries\` text NULL,
        ADD \`expires_at\` datetime(3) NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `unauth_jobs` DROP COLUMN `expires_at`, DROP COLUMN `deliveries`');
    await queryRunner.query('ALTER TABLE `sessions` DROP COLUMN `nas_source_ip`, DROP COLUMN `nas_ip_address`');
  }
}
