import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLE = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';

/**
 * RADIUS accounting: the columns a session reported by a NAS carries (all null for sessions the CLI
 * starts), and the login attempts FreeRADIUS reports after each authentication.
 */
export class RadiusAccounting1795680000000 implements MigrationInterface {
  name = 'RadiusAccounting1795680000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`sessions\`
        ADD \`nas_client_id\` varchar(36) NULL,
        ADD \`accounting_unique_id\` varchar(64) NULL,
        ADD \`acct_session_id\` varchar(64) NULL,
        ADD \`called_station_id\` varchar(128) NULL,
        ADD \`calling_station_id\` varchar(128) NULL,
        ADD \`input_octets\` bigint NULL,
        ADD \`output_octets\` bigint NULL,
        ADD \`session_time\` int NULL,
        ADD \`last_accounting_at\` datetime(3) NULL,
        ADD \`terminate_cause\` varchar(32) NULL,
        ADD UNIQUE INDEX \`uq_sessions_nas_accounting_id\` (\`nas_client_id\`, \`accounting_unique_id\`),
        ADD INDEX \`idx_sessions_nas_status\` (\`nas_client_id\`, \`status\`),
        ADD INDEX \`idx_sessions_status_last_accounting\` (\`status\`, \`last_accounting_at\`)`,
    );
    await queryRunner.query(
      `CREATE TABLE \`login_attempts\` (
        \`id\` varchar(36) NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`outcome\` varchar(16) NOT NULL,
        \`nas_client_id\` varchar(36) NULL,
        \`venue_id\` varchar(64) NULL,
        \`user_id\` varchar(36) NULL,
        \`username\` varchar(253) NULL,
        \`mac_address\` varchar(17) NULL,
        \`reason\` varchar(64) NULL,
        INDEX \`idx_login_attempts_created_at\` (\`created_at\`),
        PRIMARY KEY (\`id\`)
      ) ${TABLE}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `login_attempts`');
    await queryRunner.query(
      `ALTER TABLE \`sessions\`
        DROP INDEX \`uq_sessions_nas_accounting_id\`,
        DROP INDEX \`idx_sessions_nas_status\`,
        DROP INDEX \`idx_sessions_status_last_accounting\`,
        DROP COLUMN \`nas_client_id\`,
        DROP COLUMN \`accounting_unique_id\`,
        DROP COLUMN \`acct_session_id\`,
        DROP COLUMN \`called_station_id\`,
        DROP COLUMN \`calling_station_id\`,
        DROP COLUMN \`input_octets\`,
        DROP COLUMN \`output_octets\`,
        DROP COLUMN \`session_time\`,
        DROP COLUMN \`last_accounting_at\`,
        DROP COLUMN \`terminate_cause\``,
    );
  }
}
