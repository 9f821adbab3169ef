import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The guest portal's tables (see the mysql migration of the same name). */
export class GuestAccess1797800000000 implements MigrationInterface {
  name = 'GuestAccess1797800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "venue_portals" (
        "venue_id" varchar(64) PRIMARY KEY NOT NULL,
        "ways" varchar(64) NOT NULL,
        "display_name" varchar(100),
        "logo_url" varchar(2048),
        "colour_accent" varchar(7),
        "colour_background" varchar(7),
        "colour_text" varchar(7),
        "terms_text" text,
        "terms_version" varchar(64),
        "privacy_text" text,
        "plan_id" varchar(36),
        "validity_seconds" integer NOT NULL,
        "keep_social_email" boolean NOT NULL DEFAULT (0),
        "faskey_sealed" text,
        "created_at" datetime(3) NOT NULL,
        "updated_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE "guest_identities" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "user_id" varchar(36) NOT NULL,
        "kind" varchar(8) NOT NULL,
        "issuer" varchar(255) NOT NULL,
        "subject" varchar(255) NOT NULL,
        "email" varchar(254),
        "created_at" datetime(3) NOT NULL,
        "last_used_at" datetime(3) NOT NULL,
        CONSTRAINT "fk_guest_identities_user" FOREIGN KEY ("user_id") REFERENCES "hotspot_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_guest_identities_key" ON "guest_identities" ("venue_id", "kind", "issuer", "subject")',
    );
    await queryRunner.query('CREATE INDEX "idx_guest_identities_user" ON "guest_identities" ("user_id")');
    await queryRunner.query(
      `CREATE TABLE "terms_acceptances" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "venue_id" varchar(64) NOT NULL,
        "user_id" varchar(36) NOT NULL,
        "terms_version" varchar(64) NOT NULL,
        "mac_address" varchar(17),
        "ip_address" varchar(45),
        "accepted_at" datetime(3) NOT NULL
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "idx_terms_acceptances_venue" ON "terms_acceptances" ("venue_id", "accepted_at")',
    );
    await queryRunner.query('CREATE INDEX "idx_terms_acceptances_user" ON "terms_acceptances" ("user_id")');
    await queryRunner.query(
      `CREATE TABLE "portal_passes" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "user_id" varchar(36) NOT NULL,
        "pass_hash" varchar(64) NOT NULL,
        "expires_at" datetime(3) NOT NULL,
        "created_at" datetime(3) NOT NULL,
        CONSTRAINT "fk_portal_passes_user" FOREIGN KEY ("user_id") REFERENCES "hotspot_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_portal_passes_hash" ON "portal_passes" ("pass_hash")');
    await queryRunner.query('CREATE INDEX "idx_portal_passes_user" ON "portal_passes" ("user_id", "expires_at")');
    await queryRunner.query('CREATE INDEX "idx_portal_passes_expires" ON "portal_passes" ("expires_at")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "portal_passes"');
    await queryRunner.query('DROP TABLE "terms_acceptances"');
    await queryRunner.query('DROP TABLE "guest_identities"');
    await queryRunner.query('DROP TABLE "venue_portals"');
  }
}
