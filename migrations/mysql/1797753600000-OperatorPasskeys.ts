import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Operators' passkeys (WebAuthn credentials) and the challenge of a session's passkey ceremony. */
export class OperatorPasskeys1797753600000 implements MigrationInterface {
  name = 'OperatorPasskeys1797753600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`operator_passkeys\` (
        \`id\` varchar(36) NOT NULL,
        \`operator_id\` varchar(36) NOT NULL,
        \`credential_id\` varchar(512) NOT NULL,
        \`public_key\` varchar(1024) NOT NULL,
        \`sign_count\` bigint NOT NULL,
        \`transports\` text NULL,
        \`name\` varchar(100) NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`last_used_at\` datetime(3) NULL,
        INDEX \`ix_operator_passkeys_operator\` (\`operator_id\`),
        UNIQUE INDEX \`uq_operator_passkeys_credential\` (\`credential_id\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query('ALTER TABLE `operator_sessions` ADD `webauthn_challenge` varchar(128) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `operator_sessions` DROP COLUMN `webauthn_challenge`');
    await queryRunner.query('DROP TABLE `operator_passkeys`');
  }
}
