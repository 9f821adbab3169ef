import { readFileSync } from 'node:fs';
import { serviceVersion, versionLine } from './service-version.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('serviceVersion', () => {
  it("reads the package's version; sources run in place know no commit", () => {
    expect(serviceVersion({})).toEqual({ version: PACKAGE_VERSION, commit: null });
  });

  it('takes the commit from SERVICE_COMMIT when it is a commit hash, in lower case', () => {
    const commit = '1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D7E8F9A0B';
    expect(serviceVersion({ SERVICE_COMMIT: ` ${commit}\n` }).commit).toBe(commit.toLowerCase());
    for (const junk of ['', 'main', '1a2b3c', 'g1a2b3c4d', '1a2b3c4d; rm -rf /', 'a'.repeat(65)]) {
      expect(serviceVersion({ SERVICE_COMMIT: junk }).commit).toBeNull();
    }
  });
});

describe('versionLine', () => {
  it('appends the first 12 characters of the commit as semver build metadata', () => {
    expect(versionLine({ version: '1.2.3', commit: '1a2b3c4d5e6f7a8b9c0d' })).toBe('1.2.3+1a2b3c4d5e6f');
    expect(versionLine({ version: '1.2.3', commit: null })).toBe('1.2.3');
  });
});
