import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Console operators: accounts with a token's permissions and venues, an admin capability, TOTP. */
export class Operators1796630400000 implements MigrationInterface {
  name = 'Operators1796630400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`operators\` (
        \`id\` varchar(36) NOT NULL,
        \`email\` varchar(254) NOT NULL,
        \`email_key\` varchar(254) NOT NULL,
        \`name\` varchar(100) NOT NULL,
        \`password_hash\` varchar(255) NOT NULL,
        \`must_change_password\` tinyint NOT NULL DEFAULT 0,
        \`permissions\` text NOT NULL,
        \`admin\` tinyint NOT NULL DEFAULT 0,
        \`venue_ids\` text NULL,
        \`status\` varchar(16) NOT NULL,
        \`rights_version\` int NOT NULL DEFAULT 1,
        \`totp_secret\` varchar(512) NULL,
        \`totp_enrolled_at\` datetime(3) NULL,
        \`totp_last_step\` bigint NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`updated_at\` datetime(3) NOT NULL,
        \`last_sign_in_at\` datetime(3) NULL,
        UNIQUE INDEX \`uq_operators_email_key\` (\`email_key\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `operators`');
  }
}
