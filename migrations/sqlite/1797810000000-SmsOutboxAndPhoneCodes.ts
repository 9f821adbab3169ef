import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The SMS outbox, the phone codes' challenges and their send counters (see the mysql migration of the same name). */
export class SmsOutboxAndPhoneCodes1797810000000 implements MigrationInterface {
  name = 'SmsOutboxAndPhoneCodes1797810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sms_messages" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "recipient" varchar(16) NOT NULL,
        "gateway" varchar(8) NOT NULL,
        "sealed_content" text,
        "report_key" varchar(64) NOT NULL,
        "status" varchar(16) NOT NULL,
        "attempts" integer NOT NULL DEFAULT (0),
        "next_attempt_at" datetime(3) NOT NULL,
        "lease_expires_at" datetime(3),
        "send_before" datetime(3) NOT NULL,
        "last_error" varchar(255),
        "provider_message_id" varchar(128),
        "delivery" varchar(16),
        "delivery_reported_at" datetime(3),
        "sent_at" datetime(3),
        "created_at" datetime(3) NOT NULL,
        "updated_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "idx_sms_messages_report_key" ON "sms_messages" ("report_key")');
    await queryRunner.query('CREATE INDEX "idx_sms_messages_due" ON "sms_messages" ("status", "next_attempt_at")');
    await queryRunner.query(
      `CREATE TABLE "phone_challenges" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "phone" varchar(16) NOT NULL,
        "device_key" varchar(64),
        "code_hash" varchar(255) NOT NULL,
        "attempts" integer NOT NULL DEFAULT (0),
        "sends" integer NOT NULL DEFAULT (1),
        "expires_at" datetime(3) NOT NULL,
        "last_sent_at" datetime(3) NOT NULL,
        "verified_at" datetime(3),
        "sms_id" varchar(36) NOT NULL,
        "created_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "idx_phone_challenges_phone" ON "phone_challenges" ("venue_id", "phone", "last_sent_at")',
    );
    await queryRunner.query('CREATE INDEX "idx_phone_challenges_expires" ON "phone_challenges" ("expires_at")');
    await queryRunner.query(
      `CREATE TABLE "phone_code_counters" (
        "scope" varchar(8) NOT NULL,
        "subject" varchar(80) NOT NULL,
        "window_start" datetime(3) NOT NULL,
        "window_end" datetime(3) NOT NULL,
        "sends" integer NOT NULL,
        PRIMARY KEY ("scope", "subject", "window_start")
      )`,
    );
    await queryRunner.query('CREATE INDEX "idx_phone_code_counters_window" ON "phone_code_counters" ("window_end")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "phone_code_counters"');
    await queryRunner.query('DROP TABLE "phone_challenges"');
    await queryRunner.query('DROP TABLE "sms_messages"');
  }
}
