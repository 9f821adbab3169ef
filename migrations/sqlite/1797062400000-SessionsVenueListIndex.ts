import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The sessions of a venue by status, newest first (see the mysql migration of the same name). */
export class SessionsVenueListIndex1797062400000 implements MigrationInterface {
  name = 'SessionsVenueListIndex1797062400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "idx_sessions_venue_status_started" ON "sessions" ("venue_id", "status", "started_at")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_sessions_venue_status_started"');
  }
}
