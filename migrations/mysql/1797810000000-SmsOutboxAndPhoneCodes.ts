import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SMS outbox (sms_messages: texts sealed until sent, delivery reports by a reference's hash),
 * the phone codes' challenges (phone_challenges) and their send counters per fixed window
 * (phone_code_counters).
 */
export class SmsOutboxAndPhoneCodes1797810000000 implements MigrationInterface {
  name = 'SmsOutboxAndPhoneCodes1797810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`sms_messages\` (
        \`id\` varchar(36) NOT NULL,
        \`recipient\` varchar(16) NOT NULL,
        \`gateway\` varchar(8) NOT NULL,
        \`sealed_content\` text NULL,
        \`report_key\` varchar(64) NOT NULL,
        \`status\` varchar(16) NOT NULL,
        \`attempts\` int NOT NULL DEFAULT 0,
        \`next_attempt_at\` datetime(3) NOT NULL,
        \`lease_expires_at\` datetime(3) NULL,
        \`send_before\` datetime(3) NOT NULL,
        \`last_error\` varchar(255) NULL,
        \`provider_message_id\` varchar(128) NULL,
        \`delivery\` varchar(16) NULL,
        \`delivery_reported_at\` datetime(3) NULL,
        \`sent_at\` datetime(3) NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`updated_at\` datetime(3) NOT NULL,
        PRIMARY KEY (\`id\`),
        UNIQUE INDEX \`idx_sms_messages_report_key\` (\`report_key\`),
        INDEX \`idx_sms_messages_due\` (\`status\`, \`next_attempt_at\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`phone_challenges\` (
        \`id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`phone\` varchar(16) NOT NULL,
        \`device_key\` varchar(64) NULL,
        \`code_hash\` varchar(255) NOT NULL,
        \`attempts\` int NOT NULL DEFAULT 0,
        \`sends\` int NOT NULL DEFAULT 1,
        \`expires_at\` datetime(3) NOT NULL,
        \`last_sent_at\` datetime(3) NOT NULL,
        \`verified_at\` datetime(3) NULL,
        \`sms_id\` varchar(36) NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        PRIMARY KEY (\`id\`),
        INDEX \`idx_phone_challenges_phone\` (\`venue_id\`, \`phone\`, \`last_sent_at\`),
        INDEX \`idx_phone_challenges_expires\` (\`expires_at\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`phone_code_counters\` (
        \`scope\` varchar(8) NOT NULL,
        \`subject\` varchar(80) NOT NULL,
        \`window_start\` datetime(3) NOT NULL,
        \`window_end\` datetime(3) NOT NULL,
        \`sends\` int NOT NULL,
        PRIMARY KEY (\`scope\`, \`subject\`, \`window_start\`),
        INDEX \`idx_phone_code_counters_window\` (\`window_end\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `phone_code_counters`');
    await queryRunner.query('DROP TABLE `phone_challenges`');
    await queryRunner.query('DROP TABLE `sms_messages`');
  }
}
