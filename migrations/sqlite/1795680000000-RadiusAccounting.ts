import type { MigrationInterface, QueryRunner } from 'typeorm';

const SESSION_COLUMNS = [
  '"nas_client_id" varchar(36)',
  '"accounting_unique_id" varchar(64)',
  '"acct_session_id" varchar(64)',
  '"called_station_id" varchar(128)',
  '"calling_station_id" varchar(128)',
  '"input_octets" bigint',
  '"output_octets" bigint',
  '"session_time" integer',
  '"last_accounting_at" datetime(3)',
  '"terminate_cause" varchar(32)',
];

const SESSION_INDEXES = [
  'uq_sessions_nas_accounting_id',
  'idx_sessions_nas_status',
  'idx_sessions_status_last_accounting',
];

/**
 * RADIUS accounting: the columns a session reported by a NAS carries (all null for sessions the CLI
 * starts), and the login attempts FreeRADIUS reports after each authentication.
 */
export class RadiusAccounting1795680000000 implements MigrationInterface {
  name = 'RadiusAccounting1795680000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const column of SESSION_COLUMNS) await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN ${column}`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_sessions_nas_accounting_id" ON "sessions" ("nas_client_id", "accounting_unique_id")`,
    );
    await queryRunner.query(`CREATE INDEX "idx_sessions_nas_status" ON "sessions" ("nas_client_id", "status")`);
    await queryRunner.query(
      `CREATE INDEX "idx_sessions_status_last_accounting" ON "sessions" ("status", "last_accounting_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "login_attempts" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "created_at" datetime(3) NOT NULL,
        "outcome" varchar(16) NOT NULL,
        "nas_client_id" varchar(36),
        "venue_id" varchar(64),
        "user_id" varchar(36),
        "username" varchar(253),
        "mac_address" varchar(17),
        "reason" varchar(64)
      )`,
    );
    await queryRunner.query(`CREATE INDEX "idx_login_attempts_created_at" ON "login_attempts" ("created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "login_attempts"');
    for (const index of SESSION_INDEXES) await queryRunner.query(`DROP INDEX "${index}"`);
    for (const column of [...SESSION_COLUMNS].reverse()) {
      await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN ${column.split(' ')[0]}`);
    }
  }
}
