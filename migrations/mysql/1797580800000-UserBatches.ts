import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Batches of generated accounts (vouchers): the batch row, with its passwords (sealed, one row per
 * account, until the reveal window closes), and the batch id on each of its users.
 */
export class UserBatches1797580800000 implements MigrationInterface {
  name = 'UserBatches1797580800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`hotspot_user_batches\` (
        \`id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`label\` varchar(100) NULL,
        \`prefix\` varchar(16) NOT NULL,
        \`count\` int NOT NULL,
        \`password_length\` int NOT NULL,
        \`expires_at\` datetime(3) NULL,
        \`valid_for\` int NULL,
        \`created_by_type\` varchar(16) NOT NULL,
        \`created_by_id\` varchar(64) NULL,
        \`created_by_name\` varchar(254) NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`first_revealed_at\` datetime(3) NULL,
        \`passwords_erased_at\` datetime(3) NULL,
        INDEX \`idx_user_batches_venue\` (\`venue_id\`, \`created_at\`, \`id\`),
        INDEX \`idx_user_batches_revealed\` (\`first_revealed_at\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`hotspot_user_batch_passwords\` (
        \`user_id\` varchar(36) NOT NULL,
        \`batch_id\` varchar(36) NOT NULL,
        \`sealed_password\` varchar(255) NOT NULL,
        INDEX \`idx_batch_passwords_batch\` (\`batch_id\`),
        PRIMARY KEY (\`user_id\`),
        CONSTRAINT \`fk_batch_passwords_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`hotspot_users\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query('ALTER TABLE `hotspot_users` ADD `batch_id` varchar(36) NULL');
    await queryRunner.query('CREATE INDEX `idx_hotspot_users_batch_id` ON `hotspot_users` (`batch_id`)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `idx_hotspot_users_batch_id` ON `hotspot_users`');
    await queryRunner.query('ALTER TABLE `hotspot_users` DROP COLUMN `batch_id`');
    await queryRunner.query('DROP TABLE `hotspot_user_batch_passwords`');
    await queryRunner.query('DROP TABLE `hotspot_user_batches`');
  }
}
