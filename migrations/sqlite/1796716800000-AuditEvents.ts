import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit trail (see the mysql migration of the same name). */
export class AuditEvents1796716800000 implements MigrationInterface {
  name = 'AuditEvents1796716800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_events" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "occurred_at" datetime(3) NOT NULL,
        "actor_type" varchar(16) NOT NULL,
        "actor_id" varchar(36),
        "actor_name" varchar(254),
        "action" varchar(32) NOT NULL,
        "changed_fields" text,
        "target_type" varchar(16) NOT NULL,
        "target_id" varchar(64),
        "venue_ids" text,
        "client_address" varchar(45),
        "request_id" varchar(128),
        "outcome" varchar(16) NOT NULL
      )`,
    );
    await queryRunner.query(`CREATE INDEX "idx_audit_events_occurred_at" ON "audit_events" ("occurred_at")`);
    await queryRunner.query(`CREATE INDEX "idx_audit_events_actor_id" ON "audit_events" ("actor_id", "occurred_at")`);
    await queryRunner.query(
      `CREATE INDEX "idx_audit_events_actor_name" ON "audit_events" ("actor_name", "occurred_at")`,
    );
    await queryRunner.query(`CREATE INDEX "idx_audit_events_target" ON "audit_events" ("target_id", "occurred_at")`);
    await queryRunner.query(`CREATE INDEX "idx_audit_events_action" ON "audit_events" ("action", "occurred_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "audit_events"`);
  }
}
