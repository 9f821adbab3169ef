import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from './support/build.js';
import { headingAnchors, isExternal, markdownLines, markdownLinks } from './support/markdown.js';

/**
 * The documentation's own rules: prose lines of at most 120 characters (tables and fenced code may
 * be wider), every relative link and `#anchor` leads somewhere, and the README stays short enough
 * to read in one go. No database needed.
 */

const MAX_LINE = 120;
const MAX_README_LINES = 250;

const docsPages = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const WRAPPED = ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...docsPages];
const LINKED = [...WRAPPED, 'bench/README.md', 'deploy/freeradius/README.md'];

function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/** Why `target`, linked from `file`, leads nowhere; null when it resolves. */
function brokenLink(file: string, target: string): string | null {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const path = pathPart === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), decodeURIComponent(pathPart));
  if (!path.startsWith(ROOT)) return `${target} leaves the repository`;
  if (!existsSync(path)) return `${relative(ROOT, path)} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (!path.endsWith('.md') || statSync(path).isDirectory())
    return `#${anchor} points into a file that is not Markdown`;
  return headingAnchors(readFileSync(path, 'utf8')).has(decodeURIComponent(anchor))
    ? null
    : `${relative(ROOT, path)} has no heading #${anchor}`;
}

describe('documentation', () => {
  it('has a docs/ folder with the pages the README maps', () => {
    expect(docsPages).toEqual(
      expect.arrayContaining([
        'docs/api.md',
        'docs/operations.md',
        'docs/radius.md',
        'docs/monitoring.md',
        'docs/performance.md',
      ]),
    );
  });

  it.each(WRAPPED)('%s: no prose line over 120 characters', (file) => {
    const long = markdownLines(read(file))
      .filter((line) => !line.inFence && !line.inTable && [...line.text].length > MAX_LINE)
      .map((line) => `${file}:${line.number} (${[...line.text].length} characters)`);
    expect(long).toEqual([]);
  });

  it.each(LINKED)('%s: every relative link and anchor resolves', (file) => {
    const broken = markdownLinks(read(file))
      .filter((link) => !isExternal(link.target))
      .flatMap((link) => {
        const reason = brokenLink(file, link.target);
        return reason === null ? [] : [`${file}:${link.line}: ${link.target}: ${reason}`];
      });
    expect(broken).toEqual([]);
  });

  it(`the README has at most ${MAX_README_LINES} lines`, () => {
    expect(read('README.md').replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('the link check notices a missing file and a missing anchor', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toBe('docs/no-such-page.md does not exist');
    expect(brokenLink('README.md', 'docs/api.md#no-such-heading')).toBe('docs/api.md has no heading #no-such-heading');
    expect(brokenLink('docs/radius.md', '#disconnect-and-coa-rfc-5176')).toBeNull();
  });
});
