import type { MigrationInterface, QueryRunner } from 'typeorm';
import { respellNasAddresses } from '../shared/nas-address-spelling.js';

/**
 * One NAS per address, enforced by the database: `nas add` checked it only by reading first, which
 * two adds of one address at once could both pass under READ COMMITTED.
 */
export class NasAddressUnique1796112000000 implements MigrationInterface {
  name = 'NasAddressUnique1796112000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await respellNasAddresses(queryRunner);
    await queryRunner.query('CREATE UNIQUE INDEX `uq_nas_clients_ip_address` ON `nas_clients` (`ip_address`)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `uq_nas_clients_ip_address` ON `nas_clients`');
  }
}
