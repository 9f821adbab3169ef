import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentialsDelivery, firstStartCredentialsPath, writePrivateFile } from './first-start-credentials.js';

describe('first-start credentials', () => {
  it('go beside the SQLite file, and nowhere for a database in memory or on a server', () => {
    expect(firstStartCredentialsPath({ type: 'sqlite', path: '/srv/hotspot/data.sqlite' })).toBe(
      '/srv/hotspot/first-start-credentials.txt',
    );
    expect(firstStartCredentialsPath({ type: 'sqlite', path: ':memory:' })).toBeNull();
    expect(
      firstStartCredentialsPath({ type: 'mariadb', url: 'mysql://root@db/hotspot', database: 'hotspot' }),
    ).toBeNull();
  });

  it('are printed on a terminal only; piped, the file holds them, or stderr when there is none', () => {
    expect(credentialsDelivery(true, '/srv/f')).toEqual({ print: 'stdout', file: '/srv/f' });
    expect(credentialsDelivery(true, null)).toEqual({ print: 'stdout', file: null });
    expect(credentialsDelivery(false, '/srv/f')).toEqual({ print: 'none', file: '/srv/f' });
    expect(credentialsDelivery(false, null)).toEqual({ print: 'stderr', file: null });
  });

  it('replace an older file with a new one readable by its owner only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hotspot-credentials-'));
    try {
      const path = join(dir, 'first-start-credentials.txt');
      writeFileSync(path, 'old', { mode: 0o644 });
      writePrivateFile(path, 'new\n');
      expect(readFileSync(path, 'utf8')).toBe('new\n');
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
