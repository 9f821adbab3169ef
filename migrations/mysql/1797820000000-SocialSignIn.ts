import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Social sign-in: the OpenID providers operators register (client secret sealed), the venues that
 * offer each, and the sign-ins under way (state hashed, nonce and PKCE verifier kept here, minutes long).
 */
export class SocialSignIn1797820000000 implements MigrationInterface {
  name = 'SocialSignIn1797820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`social_providers\` (
        \`id\` varchar(36) NOT NULL,
        \`name\` varchar(64) NOT NULL,
        \`display_name\` varchar(100) NOT NULL,
        \`issuer\` varchar(255) NOT NULL,
        \`client_id\` varchar(255) NOT NULL,
        \`stored_client_secret\` text NOT NULL,
        \`scopes\` varchar(255) NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        UNIQUE INDEX \`uq_social_providers_name\` (\`name\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`social_provider_venues\` (
        \`provider_id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`position\` int NOT NULL,
        INDEX \`idx_social_provider_venues_venue\` (\`venue_id\`, \`provider_id\`),
        PRIMARY KEY (\`provider_id\`, \`venue_id\`),
        CONSTRAINT \`fk_social_provider_venues_provider\` FOREIGN KEY (\`provider_id\`) REFERENCES \`social_providers\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`social_sign_in_states\` (
        \`state_hash\` varchar(64) NOT NULL,
        \`binding_hash\` varchar(64) NOT NULL,
        \`provider_id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`terms_version\` varchar(64) NULL,
        \`nonce\` varchar(64) NOT NULL,
        \`code_verifier\` varchar(128) NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`expires_at\` datetime(3) NOT NULL,
        INDEX \`idx_social_sign_in_states_expires\` (\`expires_at\`),
        PRIMARY KEY (\`state_hash\`),
        CONSTRAINT \`fk_social_sign_in_states_provider\` FOREIGN KEY (\`provider_id\`) REFERENCES \`social_providers\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `social_sign_in_states`');
    await queryRunner.query('DROP TABLE `social_provider_venues`');
    await queryRunner.query('DROP TABLE `social_providers`');
  }
}
