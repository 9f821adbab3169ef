import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The venue registry: a display name, time zone, SSID and captive-portal URL for a venue id, which
 * the v1 API otherwise knows only as a string.
 */
export class Venues1796976000000 implements MigrationInterface {
  name = 'Venues1796976000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`venues\` (
        \`id\` varchar(64) NOT NULL,
        \`display_name\` varchar(100) NULL,
        \`time_zone\` varchar(64) NULL,
        \`ssid\` varchar(32) NULL,
        \`portal_url\` varchar(2048) NULL,
        \`created_at\` datetime(3) NOT NULL,
        \`updated_at\` datetime(3) NOT NULL,
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `venues`');
  }
}
