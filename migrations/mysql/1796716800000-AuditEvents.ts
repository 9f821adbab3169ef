import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail: one row per change (who, what, on what, from where), written with the change.
 * One index per filter of `hotspot audit list`, and the time alone for the retention sweep.
 */
export class AuditEvents1796716800000 implements MigrationInterface {
  name = 'AuditEvents1796716800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`audit_events\` (
        \`id\` varchar(36) NOT NULL,
        \`occurred_at\` datetime(3) NOT NULL,
        \`actor_type\` varchar(16) NOT NULL,
        \`actor_id\` varchar(36) NULL,
        \`actor_name\` varchar(254) NULL,
        \`action\` varchar(32) NOT NULL,
        \`changed_fields\` text NULL,
        \`target_type\` varchar(16) NOT NULL,
        \`target_id\` varchar(64) NULL,
        \`venue_ids\` text NULL,
        \`client_address\` varchar(45) NULL,
        \`request_id\` varchar(128) NULL,
        \`outcome\` varchar(16) NOT NULL,
        INDEX \`idx_audit_events_occurred_at\` (\`occurred_at\`),
        INDEX \`idx_audit_events_actor_id\` (\`actor_id\`, \`occurred_at\`),
        INDEX \`idx_audit_events_actor_name\` (\`actor_name\`, \`occurred_at\`),
        INDEX \`idx_audit_events_target\` (\`target_id\`, \`occurred_at\`),
        INDEX \`idx_audit_events_action\` (\`action\`, \`occurred_at\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `audit_events`');
  }
}
