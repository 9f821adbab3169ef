import type { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS: Array<[table: string, column: string]> = [
  ['sessions', '"nas_ip_address" varchar(45)'],
  ['sessions', '"nas_source_ip" varchar(45)'],
  ['unauth_jobs', '"deliveries" text'],
  ['unauth_jobs', '"expires_at" datetime(3)'],
];

/**
 * RFC 5176 delivery: where a session's NAS can be reached (NAS-IP-Address and the source address of
 * its accounting), each dispatcher's delivery and each session's outcome on the job, and the new
 * expiresAt a CoA job carries.
 */
export class DisconnectTracking1795852800000 implements MigrationInterface {
  name = 'DisconnectTracking1795852800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of COLUMNS) await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN ${column}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of [...COLUMNS].reverse()) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN ${column.split(' ')[0]}`);
    }
  }
}
