import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Console operators (see the mysql migration of the same name). */
export class Operators1796630400000 implements MigrationInterface {
  name = 'Operators1796630400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "operators" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "email" varchar(254) NOT NULL,
        "email_key" varchar(254) NOT NULL,
        "name" varchar(100) NOT NULL,
        "password_hash" varchar(255) NOT NULL,
        "must_change_password" boolean NOT NULL DEFAULT (0),
        "permissions" text NOT NULL,
        "admin" boolean NOT NULL DEFAULT (0),
        "venue_ids" text,
        "status" varchar(16) NOT NULL,
        "rights_version" integer NOT NULL DEFAULT (1),
        "totp_secret" varchar(512),
        "totp_enrolled_at" datetime(3),
        "totp_last_step" bigint,
        "created_at" datetime(3) NOT NULL,
        "updated_at" datetime(3) NOT NULL,
        "last_sign_in_at" datetime(3)
      )`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_operators_email_key" ON "operators" ("email_key")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "operators"`);
  }
}
