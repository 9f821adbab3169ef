import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Social sign-in: providers, their venues, sign-ins under way (see the mysql migration of the same name). */
export class SocialSignIn1797820000000 implements MigrationInterface {
  name = 'SocialSignIn1797820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "social_providers" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "name" varchar(64) NOT NULL,
        "display_name" varchar(100) NOT NULL,
        "issuer" varchar(255) NOT NULL,
        "client_id" varchar(255) NOT NULL,
        "stored_client_secret" text NOT NULL,
        "scopes" varchar(255) NOT NULL,
        "created_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_social_providers_name" ON "social_providers" ("name")');
    await queryRunner.query(
      `CREATE TABLE "social_provider_venues" (
        "provider_id" varchar(36) NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "position" integer NOT NULL,
        CONSTRAINT "fk_social_provider_venues_provider" FOREIGN KEY ("provider_id") REFERENCES "social_providers" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("provider_id", "venue_id")
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "idx_social_provider_venues_venue" ON "social_provider_venues" ("venue_id", "provider_id")',
    );
    await queryRunner.query(
      `CREATE TABLE "social_sign_in_states" (
        "state_hash" varchar(64) PRIMARY KEY NOT NULL,
        "binding_hash" varchar(64) NOT NULL,
        "provider_id" varchar(36) NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "terms_version" varchar(64),
        "nonce" varchar(64) NOT NULL,
        "code_verifier" varchar(128) NOT NULL,
        "created_at" datetime(3) NOT NULL,
        "expires_at" datetime(3) NOT NULL,
        CONSTRAINT "fk_social_sign_in_states_provider" FOREIGN KEY ("provider_id") REFERENCES "social_providers" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "idx_social_sign_in_states_expires" ON "social_sign_in_states" ("expires_at")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_social_sign_in_states_expires"');
    await queryRunner.query('DROP TABLE "social_sign_in_states"');
    await queryRunner.query('DROP INDEX "idx_social_provider_venues_venue"');
    await queryRunner.query('DROP TABLE "social_provider_venues"');
    await queryRunner.query('DROP INDEX "uq_social_providers_name"');
    await queryRunner.query('DROP TABLE "social_providers"');
  }
}
