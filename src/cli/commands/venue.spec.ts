import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PortalChanges } from '../../guest-access/guest-access.rules.js';
import { PortalValidationError, type VenuePortal } from '../../guest-access/venue-portals.service.js';
import type { VenueChanges } from '../../venues/venue-rules.js';
import { VenueValidationError, type Venue } from '../../venues/venues.service.js';
import { FakeRuntime, runCli } from '../../testing/cli.js';
import { VENUE_SERVICE, type VenueRegistry } from './venue.js';

function venue(overrides: Partial<Venue> = {}): Venue {
  return {
    id: 'lobby',
    displayName: null,
    timeZone: null,
    ssid: null,
    portalUrl: null,
    checkOutTime: null,
    defaultPlanId: null,
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    updatedAt: new Date('2030-01-02T00:00:00.000Z'),
    ...overrides,
  };
}

/** A registry that records its calls and answers what the test sets. */
class FakeRegistry implements VenueRegistry {
  calls: Array<[string, VenueChanges]> = [];
  venues: Venue[] = [];
  created = true;
  failure: Error | null = null;

  async set(id: string, changes: VenueChanges) {
    this.calls.push([id, changes]);
    if (this.failure) throw this.failure;
    const fields = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v === '' ? null : v]));
    return { venue: venue({ id, ...fields }), created: this.created, changed: Object.keys(changes) as never };
  }
  async list() {
    return this.venues;
  }
  portalCalls: Array<[string, PortalChanges]> = [];
  async setPortal(id: string, changes: PortalChanges): Promise<VenuePortal> {
    this.portalCalls.push([id, changes]);
    if (changes.validitySeconds === 999)
      throw new PortalValidationError('planId', 'must be a plan offered in the venue');
    return {
      venueId: id,
      ways: changes.ways ?? [],
      displayName: changes.displayName ?? null,
      logoUrl: null,
      colours: { accent: null, background: null, text: null },
      termsText: changes.termsText ?? null,
      termsVersion: changes.termsText ? 't-0123456789abcdef' : null,
      privacyText: null,
      planId: null,
      validitySeconds: changes.validitySeconds ?? 86_400,
      keepSocialEmail: changes.keepSocialEmail ?? false,
      hasFaskey: typeof changes.faskey === 'string',
    };
  }
}

describe('hotspot venue', () => {
  let registry: FakeRegistry;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'venue', ...argv);

  beforeEach(() => {
    registry = new FakeRegistry();
    runtime = new FakeRuntime().provide(VENUE_SERVICE, registry);
  });

  describe('set', () => {
    it('hands the given fields to the registry and prints the venue', async () => {
      const result = await run(
        'set',
        'lobby',
        '--name',
        'Hotel Lobby',
        '--time-zone',
        'Europe/Berlin',
        '--ssid',
        'Hotel Guest',
        '--portal-url',
        'https://portal.example/login',
      );
      expect(result.code).toBe(0);
      expect(registry.calls).toEqual([
        [
          'lobby',
          {
            displayName: 'Hotel Lobby',
            timeZone: 'Europe/Berlin',
            ssid: 'Hotel Guest',
            portalUrl: 'https://portal.example/login',
          },
        ],
      ]);
      expect(result.stdout).toBe(
        'Registered venue lobby: name "Hotel Lobby", time zone Europe/Berlin, SSID "Hotel Guest", ' +
          'portal URL https://portal.example/login, check-out 12:00 (default), default plan -.\n',
      );
    });

    it('clears a field with --clear-<field> or an empty value, and leaves the others out', async () => {
      registry.created = false;
      const result = await run('set', 'lobby', '--clear-ssid', '--portal-url', '', '--json');
      expect(result.code).toBe(0);
      expect(registry.calls).toEqual([['lobby', { ssid: null, portalUrl: '' }]]);
      expect(JSON.parse(result.stdout)).toEqual({
        id: 'lobby',
        displayName: null,
        timeZone: null,
        ssid: null,
        portalUrl: null,
        checkOutTime: null,
        defaultPlanId: null,
        createdAt: '2030-01-01T00:00:00.000Z',
        updatedAt: '2030-01-02T00:00:00.000Z',
      });
    });

    it.each([
      [['lob by'], 'the argument must be a venue id'],
      [['lobby', '--time-zone', 'Mars/Olympus'], "option '--time-zone' must be an IANA time zone"],
      [['lobby', '--ssid', 'x'.repeat(33)], "option '--ssid' must be at most 32 octets"],
      [['lobby', '--portal-url', 'ftp://portal.example/'], "option '--portal-url' must be an http or https URL"],
      [['lobby', '--check-out', '12'], "option '--check-out' must be a time of day as HH:MM"],
      [['lobby', '--name', 'a', '--name', 'b'], 'may be given only once'],
      [['lobby', '--ssid', 'G', '--clear-ssid'], "option '--ssid' cannot be used with option '--clear-ssid'"],
    ])('refuses %j with exit code 2 and calls no service', async (argv, message) => {
      const result = await run('set', ...argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(registry.calls).toEqual([]);
    });

    it("reports the registry's refusal as a usage error", async () => {
      registry.failure = new VenueValidationError('timeZone', 'must be an IANA time zone such as Europe/Berlin');
      const result = await run('set', 'lobby');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('timeZone must be an IANA time zone');
    });
  });

  describe('set --portal-*', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'venue-portal-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('hands the portal settings (files read, the faskey never on the command line) to the portal service', async () => {
      writeFileSync(join(dir, 'terms.txt'), 'Be kind.\n');
      writeFileSync(join(dir, 'faskey'), 'a-long-faskey-1234\n');
      const result = await run(
        'set',
        'lobby',
        '--portal-ways',
        'voucher,terms',
        '--portal-name',
        'Lobby Café',
        '--portal-colours',
        '#113355,,#222222',
        '--portal-terms-file',
        join(dir, 'terms.txt'),
        '--portal-validity',
        '7200',
        '--portal-keep-social-email',
        'yes',
        '--portal-faskey-file',
        join(dir, 'faskey'),
        '--clear-portal-plan',
      );
      expect(result.code).toBe(0);
      expect(registry.calls).toEqual([['lobby', {}]]);
      expect(registry.portalCalls).toEqual([
        [
          'lobby',
          {
            ways: ['voucher', 'terms'],
            displayName: 'Lobby Café',
            colourAccent: '#113355',
            colourBackground: null,
            colourText: '#222222',
            termsText: 'Be kind.\n',
            planId: null,
            validitySeconds: 7200,
            keepSocialEmail: true,
            faskey: 'a-long-faskey-1234',
          },
        ],
      ]);
      expect(result.stdout).toContain(
        'Guest portal of venue lobby: ways voucher,terms, name "Lobby Café", terms t-0123456789abcdef, privacy -, ' +
          'plan - (the venue default), validity 7200 s, keep social e-mail yes, openNDS faskey set.\n',
      );
    });

    it.each([
      [['--portal-ways', 'voucher,pigeon'], "option '--portal-ways' must be a comma-separated list"],
      [['--portal-colours', 'red'], "option '--portal-colours' must be up to three colours"],
      [['--portal-validity', '5'], "option '--portal-validity' must be 60 to"],
      [['--portal-keep-social-email', 'maybe'], "option '--portal-keep-social-email' must be yes or no"],
      [['--portal-terms-file', '/nonexistent/terms'], "option '--portal-terms-file' must name a readable file"],
      [['--portal-validity', '999'], 'portal planId must be a plan offered in the venue'],
    ])('%j is refused: %s', async (args, message) => {
      const result = await run('set', 'lobby', ...args);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(message);
    });
  });

  describe('list', () => {
    it('prints a table of the venues, or a hint on stderr when there are none', async () => {
      const empty = await run('list');
      expect(empty).toMatchObject({ code: 0, stdout: '' });
      expect(empty.stderr).toContain('No venues registered');
      registry.venues = [venue({ displayName: 'Hotel Lobby', timeZone: 'Europe/Berlin' })];
      const result = await run('list');
      expect(result.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+TIME ZONE\s+SSID\s+PORTAL URL\s+CHECK-OUT\s+UPDATED$/);
      expect(result.stdout).toContain('Hotel Lobby');
    });

    it('--json prints an array', async () => {
      registry.venues = [venue()];
      const result = await run('list', '--json');
      expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ id: 'lobby', displayName: null })]);
    });

    it('--help on each leaf prints its options', async () => {
      expect((await run('set', '--help')).stdout).toContain('--clear-portal-url');
      expect((await run('list', '--help')).stdout).toContain('--json');
    });
  });
});
