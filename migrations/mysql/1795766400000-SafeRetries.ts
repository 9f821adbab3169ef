import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Safe retries: the Idempotency-Keys of each token with the answer they replay, and the version of
 * each user (its ETag), 1 for the users that exist already.
 */
export class SafeRetries1795766400000 implements MigrationInterface {
  name = 'SafeRetries1795766400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`idempotency_keys\` (
        \`token_id\` varchar(36) NOT NULL,
        \`idempotency_key\` varchar(255) NOT NULL,
        \`fingerprint\` varchar(64) NOT NULL,
        \`answer\` json NULL,
        \`created_at\` datetime(3) NOT NULL,
        INDEX \`idx_idempotency_keys_created_at\` (\`created_at\`),
        PRIMARY KEY (\`token_id\`, \`idempotency_key\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query('ALTER TABLE `hotspot_users` ADD `version` int NOT NULL DEFAULT 1');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `hotspot_users` DROP COLUMN `version`');
    await queryRunner.query('DROP TABLE `idempotency_keys`');
  }
}
