import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The gateway hosts a venue's portal trusts besides private and local addresses (comma-separated; '' none). */
export class PortalGatewayHosts1797850000000 implements MigrationInterface {
  name = 'PortalGatewayHosts1797850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "venue_portals" ADD COLUMN "gateway_hosts" varchar(1024) NOT NULL DEFAULT ('')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "venue_portals" DROP COLUMN "gateway_hosts"');
  }
}
