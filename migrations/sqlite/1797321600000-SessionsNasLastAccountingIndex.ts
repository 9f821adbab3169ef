import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each NAS's latest accounting packet for the console's dashboard (see the mysql migration of the same name). */
export class SessionsNasLastAccountingIndex1797321600000 implements MigrationInterface {
  name = 'SessionsNasLastAccountingIndex1797321600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "idx_sessions_nas_last_accounting" ON "sessions" ("nas_client_id", "last_accounting_at")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_sessions_nas_last_accounting"');
  }
}
