import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The console's one-time form tokens once used, with what their result pages show (a secret sealed, for minutes). */
export class ConsoleFormTokens1797753605000 implements MigrationInterface {
  name = 'ConsoleFormTokens1797753605000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`console_form_tokens\` (
        \`token_hash\` varchar(64) NOT NULL,
        \`result_id\` varchar(36) NOT NULL,
        \`session_hash\` varchar(64) NOT NULL,
        \`link\` varchar(512) NULL,
        \`details\` text NULL,
        \`sealed_secret\` varchar(2048) NULL,
        \`secret_until\` datetime(3) NULL,
        \`created_at\` datetime(3) NOT NULL,
        UNIQUE INDEX \`uq_console_form_tokens_result\` (\`result_id\`),
        INDEX \`ix_console_form_tokens_session\` (\`session_hash\`),
        INDEX \`ix_console_form_tokens_secret_until\` (\`secret_until\`),
        INDEX \`ix_console_form_tokens_created\` (\`created_at\`),
        PRIMARY KEY (\`token_hash\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `console_form_tokens`');
  }
}
