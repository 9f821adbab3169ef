import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Generated from the entities, then read and tidied: foreign keys are declared inline. */
export class InitialSchema1795305600000 implements MigrationInterface {
  name = 'InitialSchema1795305600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_tokens" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "name" varchar(100) NOT NULL,
        "prefix" varchar(16) NOT NULL,
        "token_hash" varchar(64) NOT NULL,
        "permissions" text NOT NULL,
        "venue_ids" text,
        "created_at" datetime(3) NOT NULL,
        "last_used_at" datetime(3),
        "revoked_at" datetime(3),
        "expires_at" datetime(3)
      )`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_api_tokens_token_hash" ON "api_tokens" ("token_hash")`);

    await queryRunner.query(
      `CREATE TABLE "hotspot_users" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "name" varchar(255) NOT NULL,
        "username" varchar(64),
        "email" varchar(254),
        "phone" varchar(32),
        "mac_address" varchar(17),
        "login_method" varchar(32) NOT NULL,
        "status" varchar(16) NOT NULL,
        "password_hash" varchar(255),
        "expires_at" datetime(3),
        "metadata" text NOT NULL,
        "created_at" datetime(3) NOT NULL,
        "updated_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(`CREATE INDEX "idx_hotspot_users_mac_address" ON "hotspot_users" ("mac_address")`);
    await queryRunner.query(
      `CREATE INDEX "idx_hotspot_users_status_expires_at" ON "hotspot_users" ("status", "expires_at")`,
    );

    await queryRunner.query(
      `CREATE TABLE "hotspot_user_venues" (
        "user_id" varchar(36) NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "position" integer NOT NULL,
        "user_status" varchar(16) NOT NULL,
        "user_created_at" datetime(3) NOT NULL,
        "username_key" varchar(64),
        "email_key" varchar(254),
        "phone_key" varchar(16),
        CONSTRAINT "fk_user_venues_user" FOREIGN KEY ("user_id") REFERENCES "hotspot_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("user_id", "venue_id")
      )`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_venues_username" ON "hotspot_user_venues" ("venue_id", "username_key")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_venues_email" ON "hotspot_user_venues" ("venue_id", "email_key")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_venues_phone" ON "hotspot_user_venues" ("venue_id", "phone_key")`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_user_venues_list" ON "hotspot_user_venues" ("venue_id", "user_created_at", "user_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_user_venues_list_by_status" ON "hotspot_user_venues" ("venue_id", "user_status", "user_created_at", "user_id")`,
    );

    await queryRunner.query(
      `CREATE TABLE "devices" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "user_id" varchar(36) NOT NULL,
        "mac_address" varchar(17) NOT NULL,
        "name" varchar(255),
        "status" varchar(16) NOT NULL,
        "first_seen_at" datetime(3) NOT NULL,
        "last_seen_at" datetime(3) NOT NULL,
        CONSTRAINT "fk_devices_user" FOREIGN KEY ("user_id") REFERENCES "hotspot_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_devices_user_mac" ON "devices" ("user_id", "mac_address")`);
    await queryRunner.query(`CREATE INDEX "idx_devices_mac_address" ON "devices" ("mac_address")`);

    await queryRunner.query(
      `CREATE TABLE "sessions" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "user_id" varchar(36) NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "mac_address" varchar(17) NOT NULL,
        "ip_address" varchar(45),
        "nas_id" varchar(128),
        "status" varchar(16) NOT NULL,
        "started_at" datetime(3) NOT NULL,
        "ended_at" datetime(3),
        CONSTRAINT "fk_sessions_user" FOREIGN KEY ("user_id") REFERENCES "hotspot_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
    );
    await queryRunner.query(`CREATE INDEX "idx_sessions_user_status" ON "sessions" ("user_id", "status")`);

    await queryRunner.query(
      `CREATE TABLE "unauth_jobs" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "user_id" varchar(36) NOT NULL,
        "username" varchar(64),
        "reason" varchar(16) NOT NULL,
        "sessions" text NOT NULL,
        "status" varchar(16) NOT NULL,
        "attempts" integer NOT NULL DEFAULT (0),
        "next_attempt_at" datetime(3) NOT NULL,
        "lease_expires_at" datetime(3),
        "last_error" text,
        "created_at" datetime(3) NOT NULL,
        "updated_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(`CREATE INDEX "idx_unauth_jobs_user" ON "unauth_jobs" ("user_id")`);
    await queryRunner.query(`CREATE INDEX "idx_unauth_jobs_due" ON "unauth_jobs" ("status", "next_attempt_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['unauth_jobs', 'sessions', 'devices', 'hotspot_user_venues', 'hotspot_users', 'api_tokens']) {
      await queryRunner.query(`DROP TABLE "${table}"`);
    }
  }
}
