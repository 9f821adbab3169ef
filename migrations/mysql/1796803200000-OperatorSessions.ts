import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's sign-in: sessions (the id's SHA-256 as key), single-use recovery codes (hashed), and
 * failed sign-ins per email, which slow the next attempt down on every instance.
 */
export class OperatorSessions1796803200000 implements MigrationInterface {
  name = 'OperatorSessions1796803200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`operator_sessions\` (
        \`id_hash\` varchar(64) NOT NULL,
        \`operator_id\` varchar(36) NOT NULL,
        \`stage\` varchar(16) NOT NULL,
        \`rights_version\` int NOT NULL,
        \`pending_totp_secret\` varchar(512) NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`last_seen_at\` datetime(3) NOT NULL,
        \`expires_at\` datetime(3) NOT NULL,
        \`ip_address\` varchar(64) NOT NULL,
        \`user_agent\` varchar(255) NOT NULL,
        INDEX \`ix_operator_sessions_operator\` (\`operator_id\`),
        INDEX \`ix_operator_sessions_expires\` (\`expires_at\`),
        PRIMARY KEY (\`id_hash\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`operator_recovery_codes\` (
        \`id\` varchar(36) NOT NULL,
        \`operator_id\` varchar(36) NOT NULL,
        \`code_hash\` varchar(64) NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`used_at\` datetime(3) NULL,
        UNIQUE INDEX \`uq_operator_recovery_codes_code\` (\`operator_id\`, \`code_hash\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`console_sign_in_failures\` (
        \`email_key\` varchar(254) NOT NULL,
        \`failures\` int NOT NULL,
        \`last_failure_at\` datetime(3) NOT NULL,
        \`retry_at\` datetime(3) NOT NULL,
        INDEX \`ix_console_sign_in_failures_last\` (\`last_failure_at\`),
        PRIMARY KEY (\`email_key\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `console_sign_in_failures`');
    await queryRunner.query('DROP TABLE `operator_recovery_codes`');
    await queryRunner.query('DROP TABLE `operator_sessions`');
  }
}
