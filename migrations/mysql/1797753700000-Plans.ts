import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Service plans: the plan with its limits (null: no limit), the venues that offer it, and the plan
 * of a user, of a batch's accounts and a venue's default plan.
 */
export class Plans1797753700000 implements MigrationInterface {
  name = 'Plans1797753700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`plans\` (
        \`id\` varchar(36) NOT NULL,
        \`name\` varchar(100) NOT NULL,
        \`download_rate\` bigint NULL,
        \`upload_rate\` bigint NULL,
        \`quota_bytes\` bigint NULL,
        \`quota_period\` varchar(8) NULL,
        \`daily_time_seconds\` int NULL,
        \`total_time_seconds\` int NULL,
        \`idle_timeout_seconds\` int NULL,
        \`max_sessions\` int NULL,
        \`max_devices\` int NULL,
        \`interim_interval_seconds\` int NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`updated_at\` datetime(3) NOT NULL,
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`plan_venues\` (
        \`plan_id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`position\` int NOT NULL,
        INDEX \`idx_plan_venues_venue\` (\`venue_id\`, \`plan_id\`),
        PRIMARY KEY (\`plan_id\`, \`venue_id\`),
        CONSTRAINT \`fk_plan_venues_plan\` FOREIGN KEY (\`plan_id\`) REFERENCES \`plans\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      'ALTER TABLE `hotspot_users` ADD `plan_id` varchar(36) NULL, ADD INDEX `idx_hotspot_users_plan_id` (`plan_id`)',
    );
    await queryRunner.query(
      'ALTER TABLE `hotspot_user_batches` ADD `plan_id` varchar(36) NULL, ADD INDEX `idx_user_batches_plan_id` (`plan_id`)',
    );
    await queryRunner.query(
      'ALTER TABLE `venues` ADD `default_plan_id` varchar(36) NULL, ADD INDEX `idx_venues_default_plan_id` (`default_plan_id`)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `venues` DROP INDEX `idx_venues_default_plan_id`, DROP COLUMN `default_plan_id`',
    );
    await queryRunner.query(
      'ALTER TABLE `hotspot_user_batches` DROP INDEX `idx_user_batches_plan_id`, DROP COLUMN `plan_id`',
    );
    await queryRunner.query(
      'ALTER TABLE `hotspot_users` DROP INDEX `idx_hotspot_users_plan_id`, DROP COLUMN `plan_id`',
    );
    await queryRunner.query('DROP TABLE `plan_venues`');
    await queryRunner.query('DROP TABLE `plans`');
  }
}
