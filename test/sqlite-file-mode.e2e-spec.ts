import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestDatabase } from './support/databases.js';
import { createUser } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The embedded database's files are private to the service's user: a database file the service
 * creates is 0600, its WAL and shared-memory files too, and a folder it creates for it 0700, even
 * under the usual umask 022 (which would make them 0644 and 0755). Files that exist keep their mode.
 */

const mode = (path: string) => statSync(path).mode & 0o777;

describe('SQLite file mode', () => {
  let root: string;
  let previousUmask: number;
  let testApp: TestApp | undefined;

  beforeAll(() => {
    previousUmask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(previousUmask);
  });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hotspot-mode-'));
  });
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  /** Starts the app on `path`; the test removes the files with its temporary folder. */
  async function startOn(path: string): Promise<TestApp> {
    const database: TestDatabase = { kind: 'sqlite', url: `sqlite:${path}`, drop: async () => undefined };
    testApp = await startTestApp('sqlite', {}, { database });
    // A write, so that the WAL and shared-memory files exist.
    await createUser(testApp);
    return testApp;
  }

  it('creates the file, its -wal and -shm 0600 and the missing folders 0700', async () => {
    const path = join(root, 'var', 'data', 'hotspot.sqlite');
    await startOn(path);

    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      expect(existsSync(file)).toBe(true);
      expect({ file, mode: mode(file).toString(8) }).toEqual({ file, mode: '600' });
    }
    expect(mode(join(root, 'var')).toString(8)).toBe('700');
    expect(mode(join(root, 'var', 'data')).toString(8)).toBe('700');
  });

  it('leaves the mode of an existing file and folder as the operator set it', async () => {
    const folder = join(root, 'shared');
    mkdirSync(folder);
    chmodSync(folder, 0o750);
    const path = join(folder, 'hotspot.sqlite');
    await startOn(path);
    await testApp!.close();
    testApp = undefined;
    chmodSync(path, 0o640);

    await startOn(path);

    expect(mode(folder).toString(8)).toBe('750');
    expect(mode(path).toString(8)).toBe('640');
    // SQLite gives the files it creates the database file's mode.
    expect(mode(`${path}-wal`).toString(8)).toBe('640');
  });
});
