import type { MigrationInterface, QueryRunner } from 'typeorm';
import { respellNasAddresses } from '../shared/nas-address-spelling.js';

/** One NAS per address, enforced by the database (see the mysql migration of the same name). */
export class NasAddressUnique1796112000000 implements MigrationInterface {
  name = 'NasAddressUnique1796112000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await respellNasAddresses(queryRunner);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_nas_clients_ip_address" ON "nas_clients" ("ip_address")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "uq_nas_clients_ip_address"`);
  }
}
