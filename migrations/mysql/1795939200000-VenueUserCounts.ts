import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Per-venue user counts by status, and by status and hour of creation, filled from the existing venue rows. */
export class VenueUserCounts1795939200000 implements MigrationInterface {
  name = 'VenueUserCounts1795939200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const table = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';
    await queryRunner.query(
      `CREATE TABLE \`venue_user_counts\` (
        \`venue_id\` varchar(64) NOT NULL,
        \`user_status\` varchar(16) NOT NULL,
        \`user_count\` int NOT NULL,
        PRIMARY KEY (\`venue_id\`, \`user_status\`)
      ) ${table}`,
    );
    await queryRunner.query(
      `CREATE TABLE \`venue_user_buckets\` (
        \`venue_id\` varchar(64) NOT NULL,
        \`bucket\` int NOT NULL,
        \`user_status\` varchar(16) NOT NULL,
        \`user_count\` int NOT NULL,
        INDEX \`idx_venue_user_buckets_by_status\` (\`venue_id\`, \`user_status\`, \`bucket\`, \`user_count\`),
        PRIMARY KEY (\`venue_id\`, \`bucket\`, \`user_status\`)
      ) ${table}`,
    );
    await queryRunner.query(
      `INSERT INTO \`venue_user_counts\` (\`venue_id\`, \`user_status\`, \`user_count\`)
       SELECT \`venue_id\`, \`user_status\`, COUNT(*) FROM \`hotspot_user_venues\` GROUP BY \`venue_id\`, \`user_status\``,
    );
    // Hours since 1970 of a UTC datetime, whatever the session's time zone.
    await queryRunner.query(
      `INSERT INTO \`venue_user_buckets\` (\`venue_id\`, \`bucket\`, \`user_status\`, \`user_count\`)
       SELECT \`venue_id\`, TIMESTAMPDIFF(HOUR, '1970-01-01 00:00:00', \`user_created_at\`) AS \`hour\`, \`user_status\`, COUNT(*)
       FROM \`hotspot_user_venues\` GROUP BY \`venue_id\`, \`hour\`, \`user_status\``,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `venue_user_buckets`');
    await queryRunner.query('DROP TABLE `venue_user_counts`');
  }
}
