import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records for the regulator (access_records): who (the user and its identity, copied so that it
 * outlives the user and its edits), which device and address, from when to when, per venue and NAS,
 * one per session; no foreign key to the user, whose deletion must leave them. The sealed days of
 * their daily export (access_record_days, one per venue and day, with the file's hash and
 * signature) and the lines of each sealed file (access_record_day_lines), kept so that an export
 * writes the same bytes again.
 */
export class AccessRecords1797830000000 implements MigrationInterface {
  name = 'AccessRecords1797830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`access_records\` (
        \`id\` varchar(36) NOT NULL,
        \`session_id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`nas_id\` varchar(128) NULL,
        \`user_id\` varchar(36) NOT NULL,
        \`login_method\` varchar(32) NOT NULL,
        \`identity_kind\` varchar(16) NOT NULL,
        \`identity_issuer\` varchar(255) NOT NULL,
        \`identity\` varchar(255) NOT NULL,
        \`mac_address\` varchar(17) NOT NULL,
        \`ip_address\` varchar(45) NULL,
        \`started_at\` datetime(3) NOT NULL,
        \`ended_at\` datetime(3) NULL,
        UNIQUE INDEX \`uq_access_records_session\` (\`session_id\`),
        INDEX \`idx_access_records_venue_started\` (\`venue_id\`, \`started_at\`),
        INDEX \`idx_access_records_ended\` (\`ended_at\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`access_record_days\` (
        \`id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`day\` varchar(10) NOT NULL,
        \`time_zone\` varchar(64) NOT NULL,
        \`records\` int NOT NULL,
        \`sha256\` varchar(64) NOT NULL,
        \`signature\` varchar(88) NOT NULL,
        \`sealed_at\` datetime(3) NOT NULL,
        UNIQUE INDEX \`uq_access_record_days_venue_day\` (\`venue_id\`, \`day\`),
        INDEX \`idx_access_record_days_day\` (\`day\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`access_record_day_lines\` (
        \`day_id\` varchar(36) NOT NULL,
        \`position\` int NOT NULL,
        \`line\` varchar(4000) NOT NULL,
        PRIMARY KEY (\`day_id\`, \`position\`),
        CONSTRAINT \`fk_access_record_day_lines_day\` FOREIGN KEY (\`day_id\`) REFERENCES \`access_record_days\` (\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `access_record_day_lines`');
    await queryRunner.query('DROP TABLE `access_record_days`');
    await queryRunner.query('DROP TABLE `access_records`');
  }
}
