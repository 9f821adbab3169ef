import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Generated from the entities, then read and tidied. Tables use a binary collation so that MySQL and
 * SQLite compare identifiers and uniqueness keys the same way (keys are stored already normalised).
 */
export class InitialSchema1795305600000 implements MigrationInterface {
  name = 'InitialSchema1795305600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const table = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';
    await queryRunner.query(
      `CREATE TABLE \`api_tokens\` (
        \`id\` varchar(36) NOT NULL,
        \`name\` varchar(100) NOT NULL,
        \`prefix\` varchar(16) NOT NULL,
        \`token_hash\` varchar(64) NOT NULL,
        \`permissions\` text NOT NULL,
        \`venue_ids\` text NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`last_used_at\` datetime(3) NULL,
        \`revoked_at\` datetime(3) NULL,
        \`expires_at\` datetime(3) NULL,
        UNIQUE INDEX \`uq_api_tokens_token_hash\` (\`token_hash\`),
        PRIMARY KEY (\`id\`)
      ) ${table}`,
    );
    await queryRunner.query(
      `CREATE TABLE \`hotspot_users\` (
        \`id\` varchar(36) NOT NULL,
        \`name\` varchar(255) NOT NULL,
        \`username\` varchar(64) NULL,
        \`email\` varchar(254) NULL,
        \`phone\` varchar(32) NULL,
        \`mac_address\` varchar(17) NULL,
        \`login_method\` varchar(32) NOT NULL,
        \`status\` varchar(16) NOT NULL,
        \`password_hash\` varchar(255) NULL,
        \`expires_at\` datetime(3) NULL,
        \`metadata\` text NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`updated_at\` datetime(3) NOT NULL,
        INDEX \`idx_hotspot_users_mac_address\` (\`mac_address\`),
        INDEX \`idx_hotspot_users_status_expires_at\` (\`status\`, \`expires_at\`),
        PRIMARY KEY (\`id\`)
      ) ${table}`,
    );
    await queryRunner.query(
      `CREATE TABLE \`hotspot_user_venues\` (
        \`user_id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`position\` int NOT NULL,
        \`user_status\` varchar(16) NOT NULL,
        \`user_created_at\` datetime(3) NOT NULL,
        \`username_key\` varchar(64) NULL,
        \`email_key\` varchar(254) NULL,
        \`phone_key\` varchar(16) NULL,
        UNIQUE INDEX \`uq_user_venues_username\` (\`venue_id\`, \`username_key\`),
        UNIQUE INDEX \`uq_user_venues_email\` (\`venue_id\`, \`email_key\`),
        UNIQUE INDEX \`uq_user_venues_phone\` (\`venue_id\`, \`phone_key\`),
        INDEX \`idx_user_venues_list\` (\`venue_id\`, \`user_created_at\`, \`user_id\`),
        INDEX \`idx_user_venues_list_by_status\` (\`venue_id\`, \`user_status\`, \`user_created_at\`, \`user_id\`),
        PRIMARY KEY (\`user_id\`, \`venue_id\`),
        CONSTRAINT \`fk_user_venues_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`hotspot_users\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ${table}`,
    );
    await queryRunner.query(
      `CREATE TABLE \`devices\` (
        \`id\` varchar(36) NOT NULL,
        \`user_id\` varchar(36) NOT NULL,
        \`mac_address\` varchar(17) NOT NULL,
        \`name\` varchar(255) NULL,
        \`status\` varchar(16) NOT NULL,
        \`first_seen_at\` datetime(3) NOT NULL,
        \`last_seen_at\` datetime(3) NOT NULL,
        UNIQUE INDEX \`uq_devices_user_mac\` (\`user_id\`, \`mac_address\`),
        INDEX \`idx_devices_mac_address\` (\`mac_address\`),
        PRIMARY KEY (\`id\`),
        CONSTRAINT \`fk_devices_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`hotspot_users\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ${table}`,
    );
    await queryRunner.query(
      `CREATE TABLE \`sessions\` (
        \`id\` varchar(36) NOT NULL,
        \`user_id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`mac_address\` varchar(17) NOT NULL,
        \`ip_address\` varchar(45) NULL,
        \`nas_id\` varchar(128) NULL,
        \`status\` varchar(16) NOT NULL,
        \`started_at\` datetime(3) NOT NULL,
        \`ended_at\` datetime(3) NULL,
        INDEX \`idx_sessions_user_status\` (\`user_id\`, \`status\`),
        PRIMARY KEY (\`id\`),
        CONSTRAINT \`fk_sessions_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`hotspot_users\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ${table}`,
    );
    await queryRunner.query(
      `CREATE TABLE \`unauth_jobs\` (
        \`id\` varchar(36) NOT NULL,
        \`user_id\` varchar(36) NOT NULL,
        \`username\` varchar(64) NULL,
        \`reason\` varchar(16) NOT NULL,
        \`sessions\` text NOT NULL,
        \`status\` varchar(16) NOT NULL,
        \`attempts\` int NOT NULL DEFAULT '0',
        \`next_attempt_at\` datetime(3) NOT NULL,
        \`lease_expires_at\` datetime(3) NULL,
        \`last_error\` text NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`updated_at\` datetime(3) NOT NULL,
        INDEX \`idx_unauth_jobs_user\` (\`user_id\`),
        INDEX \`idx_unauth_jobs_due\` (\`status\`, \`next_attempt_at\`),
        PRIMARY KEY (\`id\`)
      ) ${table}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['unauth_jobs', 'sessions', 'devices', 'hotspot_user_venues', 'hotspot_users', 'api_tokens']) {
      await queryRunner.query(`DROP TABLE \`${table}\``);
    }
  }
}
