import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './support/build.js';
import { CLI_MAIN } from './support/cli-io.js';
import { taggedBlocks } from './support/markdown.js';
import { freePort, startService, type Service } from './support/service-process.js';

/**
 * The README's five-minute tour, run as written: its blocks fenced as `sh tour` (GitHub shows them as
 * `sh`), in order, in one `bash -euo pipefail` from the project folder, against the compiled service
 * started as on a first `npm start` (an empty SQLite database, so it prints a token), with the two
 * variables the tour says to set: `API` and `TOKEN`, the printed token. `DATABASE_URL` names the service's file,
 * which for a reader is the default `data/hotspot.sqlite` of the project folder both use.
 *
 * Each `# …` line after a command is output the README shows; it must appear, in order, in the
 * block's output. In those lines `…` stands for "anything", the README's example ids
 * (`019abc12-3def-7a45-8b67-89abcdef0123`, shortened `019abc12-…`) for any UUID, `hsp_AbC12x…` for
 * any token's listed prefix, runs of spaces for any spacing, and a job shown `done` may still be
 * `pending` or `processing` (the worker delivers it within its poll interval, as the tour says).
 */

const MAIN = join(ROOT, 'dist/src/main.js');
const TOUR_BLOCK = 'sh tour';
const BLOCK_END = '@@end of tour block@@';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The output lines a block shows (its `# ` comment lines), each as a pattern. */
function shownOutput(block: string): RegExp[] {
  return block
    .split('\n')
    .filter((line) => line.startsWith('# '))
    .map((line) => {
      const pattern = line
        .slice(2)
        .trim()
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/019abc12-3def-7a45-8b67-89abcdef0123|019abc12-…/g, UUID)
        .replace(/hsp_AbC12x…/g, 'hsp_[A-Za-z0-9_-]{6}…')
        .replace(/\bdone\b/g, '(?:pending|processing|done)')
        .replace(/ {2,}/g, '\\s+')
        .replace(/…/g, '.*');
      return new RegExp(`^${pattern}$`);
    });
}

describe("the README's tour", () => {
  let dir: string;
  let service: Service | undefined;

  beforeAll(() => {
    ensureBuilt([MAIN, CLI_MAIN]);
  }, 120_000);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotspot-tour-'));
  });

  afterEach(() => {
    if (service !== undefined && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs as written, with the outputs it shows', async () => {
    const blocks = taggedBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'), TOUR_BLOCK);
    expect(blocks.length).toBeGreaterThanOrEqual(5);

    const port = await freePort();
    const databaseUrl = `sqlite:${join(dir, 'hotspot.sqlite')}`;
    service = startService(MAIN, { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl }, dir);
    // Piped, the service writes the generated token to the credentials file beside the database.
    await service.waitForOutput(/readable by this user only/, 20_000);
    const token = /^ {4}(hsp_\S+)$/m.exec(readFileSync(join(dir, 'first-start-credentials.txt'), 'utf8'))![1];

    const script = blocks.map((block) => `${block}\nprintf '\\n%s\\n' '${BLOCK_END}'`).join('\n');
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', `${script}\nprintf '%s' "$USER_ID"`], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 90_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? dir,
        API: `http://127.0.0.1:${port}`,
        TOKEN: token,
        DATABASE_URL: databaseUrl,
      },
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });

    const outputs = run.stdout.split(`\n${BLOCK_END}\n`);
    expect(outputs).toHaveLength(blocks.length + 1);
    blocks.forEach((block, index) => {
      const lines = outputs[index].split('\n');
      let from = 0;
      for (const shown of shownOutput(block)) {
        const at = lines.findIndex((line, position) => position >= from && shown.test(line.trim()));
        expect({ block: index + 1, shown: shown.source, found: at !== -1, output: lines }).toMatchObject({
          found: true,
        });
        from = at + 1;
      }
    });

    // What the tour did is in the service: the user is blocked, with one job of reason "blocked".
    const userId = outputs[blocks.length];
    expect(userId).toMatch(new RegExp(`^${UUID}$`));
    const headers = { Authorization: `Bearer ${token}` };
    const user = (await (
      await fetch(`http://127.0.0.1:${port}/api/v1/hotspot-users/${userId}`, { headers })
    ).json()) as {
      data: { status: string; username: string; venueIds: string[] };
    };
    expect(user.data).toMatchObject({ status: 'blocked', username: 'room-1204', venueIds: ['istanbul-lobby'] });
    const jobs = (await (
      await fetch(`http://127.0.0.1:${port}/api/v1/hotspot-users/${userId}/unauth-jobs`, { headers })
    ).json()) as { data: Array<{ reason: string }> };
    expect(jobs.data.map((job) => job.reason)).toEqual(['blocked']);
  }, 120_000);
});
