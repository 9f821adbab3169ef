import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The guest portal (src/guest-access): each venue's portal settings (venue_portals), who a portal
 * user is (guest_identities, one row per venue and phone, social subject or device MAC: the unique key
 * that makes two admissions at once one user), the terms each guest accepted (terms_acceptances, kept
 * without a foreign key: evidence outlives the user) and the hand-over's one-time passes (portal_passes).
 */
export class GuestAccess1797800000000 implements MigrationInterface {
  name = 'GuestAccess1797800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`venue_portals\` (
        \`venue_id\` varchar(64) NOT NULL,
        \`ways\` varchar(64) NOT NULL,
        \`display_name\` varchar(100) NULL,
        \`logo_url\` varchar(2048) NULL,
        \`colour_accent\` varchar(7) NULL,
        \`colour_background\` varchar(7) NULL,
        \`colour_text\` varchar(7) NULL,
        \`terms_text\` text NULL,
        \`terms_version\` varchar(64) NULL,
        \`privacy_text\` text NULL,
        \`plan_id\` varchar(36) NULL,
        \`validity_seconds\` int NOT NULL,
        \`keep_social_email\` tinyint NOT NULL DEFAULT 0,
        \`faskey_sealed\` text NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`updated_at\` datetime(3) NOT NULL,
        PRIMARY KEY (\`venue_id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`guest_identities\` (
        \`id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`user_id\` varchar(36) NOT NULL,
        \`kind\` varchar(8) NOT NULL,
        \`issuer\` varchar(255) NOT NULL,
        \`subject\` varchar(255) NOT NULL,
        \`email\` varchar(254) NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`last_used_at\` datetime(3) NOT NULL,
        PRIMARY KEY (\`id\`),
        UNIQUE INDEX \`uq_guest_identities_key\` (\`venue_id\`, \`kind\`, \`issuer\`, \`subject\`),
        INDEX \`idx_guest_identities_user\` (\`user_id\`),
        CONSTRAINT \`fk_guest_identities_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`hotspot_users\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`terms_acceptances\` (
        \`id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`user_id\` varchar(36) NOT NULL,
        \`terms_version\` varchar(64) NOT NULL,
        \`mac_address\` varchar(17) NULL,
        \`ip_address\` varchar(45) NULL,
        \`accepted_at\` datetime(3) NOT NULL,
        PRIMARY KEY (\`id\`),
        INDEX \`idx_terms_acceptances_venue\` (\`venue_id\`, \`accepted_at\`),
        INDEX \`idx_terms_acceptances_user\` (\`user_id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`portal_passes\` (
        \`id\` varchar(36) NOT NULL,
        \`user_id\` varchar(36) NOT NULL,
        \`pass_hash\` varchar(64) NOT NULL,
        \`expires_at\` datetime(3) NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        PRIMARY KEY (\`id\`),
        UNIQUE INDEX \`uq_portal_passes_hash\` (\`pass_hash\`),
        INDEX \`idx_portal_passes_user\` (\`user_id\`, \`expires_at\`),
        INDEX \`idx_portal_passes_expires\` (\`expires_at\`),
        CONSTRAINT \`fk_portal_passes_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`hotspot_users\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `portal_passes`');
    await queryRunner.query('DROP TABLE `terms_acceptances`');
    await queryRunner.query('DROP TABLE `guest_identities`');
    await queryRunner.query('DROP TABLE `venue_portals`');
  }
}
