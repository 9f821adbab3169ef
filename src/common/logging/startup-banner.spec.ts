import {
  describeDatabase,
  firstAdminBanner,
  generatedTokenBanner,
  maskedDatabaseUrl,
  missingTokenMessage,
} from './startup-banner.js';

describe('start-up messages', () => {
  it('names the SQLite file by its full path', () => {
    expect(describeDatabase({ type: 'sqlite', path: '/srv/hotspot/data.sqlite' })).toBe(
      'SQLite file /srv/hotspot/data.sqlite',
    );
    expect(describeDatabase({ type: 'sqlite', path: 'data/hotspot.sqlite' })).toBe(
      `SQLite file ${process.cwd()}/data/hotspot.sqlite`,
    );
  });

  it('names a server database without its credentials', () => {
    const database = {
      type: 'mariadb' as const,
      url: 'mysql://app:secret@db.internal:3307/hotspot',
      database: 'hotspot',
    };
    expect(describeDatabase(database)).toBe('MariaDB database hotspot on db.internal:3307');
  });

  it('masks the password of DATABASE_URL and keeps its scheme', () => {
    expect(
      maskedDatabaseUrl({ type: 'mariadb', url: 'mysql://app:s%40cret@db:3306/hotspot', database: 'hotspot' }),
    ).toBe('mariadb://app:****@db:3306/hotspot');
    expect(maskedDatabaseUrl({ type: 'mysql', url: 'mysql://app@db:3306/hotspot', database: 'hotspot' })).toBe(
      'mysql://app@db:3306/hotspot',
    );
  });

  it('gives a command that runs as written, the password masked, the URL quoted when a shell needs it', () => {
    const message = missingTokenMessage({
      type: 'mysql',
      url: 'mysql://app:secret@db:3306/hotspot?ssl=true&charset=utf8mb4',
      database: 'hotspot',
    });
    expect(message).toContain(
      "DATABASE_URL='mysql://app:****@db:3306/hotspot?ssl=true&charset=utf8mb4' node dist/src/cli/main.js token create " +
        '--name admin --permissions read,write,delete',
    );
    expect(message).toContain('real password in place of ****');
    expect(message).not.toContain('secret');
  });

  it('shows the generated token with the database and a request to try', () => {
    const banner = generatedTokenBanner({
      token: 'hsp_abc',
      apiUrl: 'http://localhost:3000/api/v1',
      docsUrl: 'http://localhost:3000/api/docs',
      database: 'SQLite file /srv/data.sqlite',
    });
    expect(banner).toContain('\n    hsp_abc\n');
    expect(banner).toContain('Database: SQLite file /srv/data.sqlite');
    expect(banner).toContain('curl -H "Authorization: Bearer hsp_abc" http://localhost:3000/api/v1');
  });

  it('shows where the first administrator signs in, its email and its one-time password', () => {
    const banner = firstAdminBanner({
      consoleUrl: 'http://localhost:3000/admin/login',
      email: 'admin@localhost',
      oneTimePassword: 'ABCDE-FGHIJ-KLMNO-PQRST',
    });
    const lines = banner.split('\n');
    expect(lines).toContain('    http://localhost:3000/admin/login');
    expect(lines).toContain('    Email:    admin@localhost');
    expect(lines).toContain('    Password: ABCDE-FGHIJ-KLMNO-PQRST');
    expect(banner).toContain('shown only once and must be changed at the first sign-in');
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
  });
});
