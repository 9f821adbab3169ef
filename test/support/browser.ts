import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { OPERATOR_PASSWORD, totpCode } from './console.js';

/** Debian's Chromium, driven by playwright-core (never a downloaded browser). */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 900 };
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  nodes: Array<{ target: unknown }>;
}

/**
 * A browser for one suite: a fresh profile, pages that record every Content-Security-Policy refusal
 * and script error (`problems`), and `close()` that removes the profile.
 */
export class TestBrowser {
  readonly problems: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    private readonly profile: string,
  ) {}

  static async launch(viewport = DESKTOP): Promise<TestBrowser> {
    const profile = mkdtempSync(join(tmpdir(), 'hotspot-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
    });
    return new TestBrowser(context, profile);
  }

  async newPage(): Promise<Page> {
    const page = await this.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        this.problems.push(message.text());
    });
    page.on('pageerror', (error) => this.problems.push(error.message));
    return page;
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/** axe-core's violations on the page as it is now: [{ id, nodes }] (empty when it finds nothing). */
export async function axeViolations(page: Page): Promise<Array<{ id: string; nodes: unknown[] }>> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations.map(({ id, nodes }) => ({ id, nodes: nodes.map((node) => node.target) }));
  });
}

/** How wide the page's content is (more than the viewport means a sideways scroll of the whole page). */
export async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
        .scrollWidth,
  );
}

/**
 * Signs in through the console's forms in the browser: email and password, then the TOTP code of
 * `totpSecret` when given, or, for an administrator not yet enrolled, the enrolment (whose seed it
 * returns). Ends on the page the console shows after signing in.
 */
export async function signInInBrowser(
  page: Page,
  base: string,
  email: string,
  totpSecret: string | null = null,
): Promise<string | null> {
  await page.goto(`${base}/admin/login`);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(OPERATOR_PASSWORD);
  await page.locator('#password').press('Enter');
  await page.waitForLoadState();
  if (page.url().endsWith('/admin/login/second-factor')) {
    if (totpSecret === null) throw new Error('the console asks for a second factor and no seed was given');
    await page.locator('#code').fill(totpCode(totpSecret, new Date()));
    await page.locator('#code').press('Enter');
    await page.waitForURL((url) => !url.pathname.startsWith('/admin/login'));
    return totpSecret;
  }
  if (page.url().endsWith('/admin/two-factor')) {
    const secret = ((await page.locator('code.secret').textContent()) ?? '').trim();
    await page.locator('#code').fill(totpCode(secret, new Date()));
    await page.locator('#code').press('Enter');
    await page.locator('ul.codes').waitFor();
    await page.locator('main a').click();
    await page.waitForURL(`${base}/admin`);
    return secret;
  }
  return totpSecret;
}
