import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The console's one-time form tokens once used, with what their result pages show (a secret sealed, for minutes). */
export class ConsoleFormTokens1797753605000 implements MigrationInterface {
  name = 'ConsoleFormTokens1797753605000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "console_form_tokens" (
        "token_hash" varchar(64) PRIMARY KEY NOT NULL,
        "result_id" varchar(36) NOT NULL,
        "session_hash" varchar(64) NOT NULL,
        "link" varchar(512),
        "details" text,
        "sealed_secret" varchar(2048),
        "secret_until" datetime(3),
        "created_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_console_form_tokens_result" ON "console_form_tokens" ("result_id")`,
    );
    await queryRunner.query(`CREATE INDEX "ix_console_form_tokens_session" ON "console_form_tokens" ("session_hash")`);
    await queryRunner.query(
      `CREATE INDEX "ix_console_form_tokens_secret_until" ON "console_form_tokens" ("secret_until")`,
    );
    await queryRunner.query(`CREATE INDEX "ix_console_form_tokens_created" ON "console_form_tokens" ("created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "console_form_tokens"');
  }
}
