import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Records for the regulator and the sealed days of their export (see the mysql migration of the same name). */
export class AccessRecords1797830000000 implements MigrationInterface {
  name = 'AccessRecords1797830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "access_records" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "session_id" varchar(36) NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "nas_id" varchar(128),
        "user_id" varchar(36) NOT NULL,
        "login_method" varchar(32) NOT NULL,
        "identity_kind" varchar(16) NOT NULL,
        "identity_issuer" varchar(255) NOT NULL,
        "identity" varchar(255) NOT NULL,
        "mac_address" varchar(17) NOT NULL,
        "ip_address" varchar(45),
        "started_at" datetime(3) NOT NULL,
        "ended_at" datetime(3)
      )`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_access_records_session" ON "access_records" ("session_id")');
    await queryRunner.query(
      'CREATE INDEX "idx_access_records_venue_started" ON "access_records" ("venue_id", "started_at")',
    );
    await queryRunner.query('CREATE INDEX "idx_access_records_ended" ON "access_records" ("ended_at")');
    await queryRunner.query(
      `CREATE TABLE "access_record_days" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "day" varchar(10) NOT NULL,
        "time_zone" varchar(64) NOT NULL,
        "records" integer NOT NULL,
        "sha256" varchar(64) NOT NULL,
        "signature" varchar(88) NOT NULL,
        "sealed_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_access_record_days_venue_day" ON "access_record_days" ("venue_id", "day")',
    );
    await queryRunner.query('CREATE INDEX "idx_access_record_days_day" ON "access_record_days" ("day")');
    await queryRunner.query(
      `CREATE TABLE "access_record_day_lines" (
        "day_id" varchar(36) NOT NULL,
        "position" integer NOT NULL,
        "line" varchar(4000) NOT NULL,
        CONSTRAINT "fk_access_record_day_lines_day" FOREIGN KEY ("day_id") REFERENCES "access_record_days" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("day_id", "position")
      )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "access_record_day_lines"');
    await queryRunner.query('DROP INDEX "idx_access_record_days_day"');
    await queryRunner.query('DROP INDEX "uq_access_record_days_venue_day"');
    await queryRunner.query('DROP TABLE "access_record_days"');
    await queryRunner.query('DROP INDEX "idx_access_records_ended"');
    await queryRunner.query('DROP INDEX "idx_access_records_venue_started"');
    await queryRunner.query('DROP INDEX "uq_access_records_session"');
    await queryRunner.query('DROP TABLE "access_records"');
  }
}
