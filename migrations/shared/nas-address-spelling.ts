import { isIP, SocketAddress } from 'node:net';
import type { QueryRunner } from 'typeorm';

/**
 * Before `nas_clients.ip_address` becomes unique: every stored address in the one spelling the
 * registry writes today (IPv6 lower case and compressed as RFC 5952 says, no /32 or /128 after a
 * single address), so that two spellings of one address count as one. Registries written before
 * the service stored that spelling may hold others. Two NASes that then share an address stop the
 * migration with a message naming them (FreeRADIUS could not tell their requests apart either).
 * Kept here, not imported from the service, so that the migration stays as it was written.
 */
export async function respellNasAddresses(queryRunner: QueryRunner): Promise<void> {
  const rows: Array<{ id: string; name: string; ip_address: string }> = await queryRunner.query(
    'SELECT id, name, ip_address FROM nas_clients ORDER BY created_at, id',
  );
  const holders = new Map<string, string[]>();
  for (const row of rows) {
    const spelling = oneSpelling(row.ip_address);
    if (spelling !== row.ip_address) {
      await queryRunner.query('UPDATE nas_clients SET ip_address = ? WHERE id = ?', [spelling, row.id]);
    }
    holders.set(spelling, [...(holders.get(spelling) ?? []), row.name]);
  }
  const shared = [...holders].filter(([, names]) => names.length > 1);
  if (shared.length > 0) {
    const list = shared.map(([address, names]) => `${address} (${names.map((n) => `"${n}"`).join(', ')})`);
    throw new Error(
      `Several NASes share an address: ${list.join('; ')}. Remove all but one of each ` +
        '(hotspot nas remove NAME) with the previous release, then upgrade.',
    );
  }
}

function oneSpelling(stored: string): string {
  const slash = stored.indexOf('/');
  const address = (slash === -1 ? stored : stored.slice(0, slash)).toLowerCase();
  const family = isIP(address);
  // Not an address the registry accepted: left as it is (radius-config reports it).
  if (family === 0) return stored;
  const canonical = family === 6 ? new SocketAddress({ address, family: 'ipv6' }).address : address;
  const prefix = slash === -1 ? null : Number(stored.slice(slash + 1));
  return prefix === null || prefix === (family === 4 ? 32 : 128) ? canonical : `${canonical}/${prefix}`;
}
