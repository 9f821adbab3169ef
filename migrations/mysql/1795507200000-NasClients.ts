import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The NAS registry: the FreeRADIUS clients (clients.conf is generated from it). */
export class NasClients1795507200000 implements MigrationInterface {
  name = 'NasClients1795507200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`nas_clients\` (
        \`id\` varchar(36) NOT NULL,
        \`venue_id\` varchar(64) NOT NULL,
        \`name\` varchar(64) NOT NULL,
        \`ip_address\` varchar(49) NOT NULL,
        \`secret\` varchar(512) NOT NULL,
        \`coa_port\` int NOT NULL,
        \`vendor\` varchar(16) NOT NULL,
        \`require_message_authenticator\` tinyint NOT NULL,
        \`created_at\` datetime(3) NOT NULL,
        UNIQUE INDEX \`uq_nas_clients_name\` (\`name\`),
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `nas_clients`');
  }
}
