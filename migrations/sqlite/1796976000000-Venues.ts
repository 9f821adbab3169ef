import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The venue registry (see the mysql migration of the same name). */
export class Venues1796976000000 implements MigrationInterface {
  name = 'Venues1796976000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "venues" (
        "id" varchar(64) PRIMARY KEY NOT NULL,
        "display_name" varchar(100),
        "time_zone" varchar(64),
        "ssid" varchar(32),
        "portal_url" varchar(2048),
        "created_at" datetime(3) NOT NULL,
        "updated_at" datetime(3) NOT NULL
      )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "venues"`);
  }
}
