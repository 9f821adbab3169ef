import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's usage per period (hotspot_user_usage), folded from the sessions' counters: each session
 * keeps what the fold last added and a flag its accounting writes set (indexed, so the fold finds
 * the few that rose among every session ever recorded). The sessions already there are flagged
 * when they have counters, so the first fold adds them to their users' usage.
 */
export class UsageCounters1797753750000 implements MigrationInterface {
  name = 'UsageCounters1797753750000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`hotspot_user_usage\` (
        \`user_id\` varchar(36) NOT NULL,
        \`period\` varchar(10) NOT NULL,
        \`input_octets\` bigint NOT NULL DEFAULT 0,
        \`output_octets\` bigint NOT NULL DEFAULT 0,
        \`session_seconds\` bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (\`user_id\`, \`period\`),
        INDEX \`idx_hotspot_user_usage_period\` (\`period\`),
        CONSTRAINT \`fk_hotspot_user_usage_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`hotspot_users\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `ALTER TABLE \`sessions\`
        ADD \`usage_pending\` tinyint NOT NULL DEFAULT 0,
        ADD \`usage_input_octets\` bigint NOT NULL DEFAULT 0,
        ADD \`usage_output_octets\` bigint NOT NULL DEFAULT 0,
        ADD \`usage_session_time\` int NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(
      `UPDATE \`sessions\` SET \`usage_pending\` = 1
        WHERE \`input_octets\` IS NOT NULL OR \`output_octets\` IS NOT NULL OR \`session_time\` IS NOT NULL`,
    );
    await queryRunner.query('CREATE INDEX `idx_sessions_usage_pending` ON `sessions` (`usage_pending`)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`sessions\` DROP INDEX \`idx_sessions_usage_pending\`, DROP COLUMN \`usage_pending\`,
        DROP COLUMN \`usage_input_octets\`, DROP COLUMN \`usage_output_octets\`, DROP COLUMN \`usage_session_time\``,
    );
    await queryRunner.query('DROP TABLE `hotspot_user_usage`');
  }
}
