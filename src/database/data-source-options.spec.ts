import { DEFAULT_DB_POOL_SIZE } from '../config/configuration.js';
import { buildDataSourceOptions } from './data-source-options.js';

describe('buildDataSourceOptions', () => {
  const mysql = { type: 'mysql', url: 'mysql://app@db:3306/hotspot', database: 'hotspot' } as const;

  it("gives mysql2's pool the configured number of connections", () => {
    const options = buildDataSourceOptions(mysql, { poolSize: 7 });
    expect(options).toMatchObject({ extra: { connectionLimit: 7 } });
  });

  it('falls back to the default pool size when none is given (TypeORM CLI, tests)', () => {
    expect(buildDataSourceOptions(mysql)).toMatchObject({ extra: { connectionLimit: DEFAULT_DB_POOL_SIZE } });
  });
});
