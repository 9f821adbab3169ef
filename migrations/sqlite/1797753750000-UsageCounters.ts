import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's usage per period, folded from the sessions' counters (see the mysql migration of the same name). */
export class UsageCounters1797753750000 implements MigrationInterface {
  name = 'UsageCounters1797753750000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "hotspot_user_usage" (
        "user_id" varchar(36) NOT NULL,
        "period" varchar(10) NOT NULL,
        "input_octets" bigint NOT NULL DEFAULT (0),
        "output_octets" bigint NOT NULL DEFAULT (0),
        "session_seconds" bigint NOT NULL DEFAULT (0),
        CONSTRAINT "fk_hotspot_user_usage_user" FOREIGN KEY ("user_id") REFERENCES "hotspot_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("user_id", "period")
      )`,
    );
    await queryRunner.query('CREATE INDEX "idx_hotspot_user_usage_period" ON "hotspot_user_usage" ("period")');
    await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "usage_pending" boolean NOT NULL DEFAULT (0)`);
    await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "usage_input_octets" bigint NOT NULL DEFAULT (0)`);
    await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "usage_output_octets" bigint NOT NULL DEFAULT (0)`);
    await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "usage_session_time" integer NOT NULL DEFAULT (0)`);
    await queryRunner.query(
      `UPDATE "sessions" SET "usage_pending" = 1
        WHERE "input_octets" IS NOT NULL OR "output_octets" IS NOT NULL OR "session_time" IS NOT NULL`,
    );
    await queryRunner.query('CREATE INDEX "idx_sessions_usage_pending" ON "sessions" ("usage_pending")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_sessions_usage_pending"');
    for (const column of ['usage_session_time', 'usage_output_octets', 'usage_input_octets', 'usage_pending'])
      await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "${column}"`);
    await queryRunner.query('DROP TABLE "hotspot_user_usage"');
  }
}
