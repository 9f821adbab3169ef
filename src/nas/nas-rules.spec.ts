import { isNetwork, nasNameProblem, parseNasAddress, secretProblem, shortSecretProblem } from './nas-rules.js';

describe('NAS rules', () => {
  it.each(['ap-1', 'Lobby_AP.2', 'a', 'x'.repeat(64)])('accepts the name %j', (name) => {
    expect(nasNameProblem(name)).toBeNull();
  });

  it.each(['', 'x'.repeat(65), 'ap 1', 'ap"1', 'ap{', 'ap\n', 'café', 'ap#1'])('refuses the name %j', (name) => {
    expect(nasNameProblem(name)).toMatch(/^must be 1-64 characters/);
  });

  it.each(['s', 'a secret with spaces and $%{}', 'x'.repeat(128), "it's"])('accepts the secret %j', (secret) => {
    expect(secretProblem(secret)).toBeNull();
  });

  it.each(['', 'x'.repeat(129), 'quo"te', 'back\\slash', 'new\nline', 'tab\there', 'nul\u0000', 'del\u007f'])(
    'refuses the secret %j, without repeating it',
    (secret) => {
      const problem = secretProblem(secret);
      expect(problem).toMatch(/^must be 1-128 printable characters/);
      if (secret.length > 2) expect(problem).not.toContain(secret);
    },
  );

  it.each([
    ['192.0.2.10', '192.0.2.10', 4, 32],
    ['192.0.2.10/32', '192.0.2.10', 4, 32],
    ['192.0.2.0/24', '192.0.2.0/24', 4, 24],
    ['10.0.0.0/8', '10.0.0.0/8', 4, 8],
    ['2001:DB8::1', '2001:db8::1', 6, 128],
    ['2001:db8::/64', '2001:db8::/64', 6, 64],
    ['2001:0DB8:0:0:0:0:0:1', '2001:db8::1', 6, 128],
    ['2001:db8:0:0:1:0:0:0/112', '2001:db8:0:0:1::/112', 6, 112],
    ['64:ff9b::192.0.2.0/120', '64:ff9b::c000:200/120', 6, 120],
  ])('parses %j as %j', (raw, text, family, prefixLength) => {
    expect(parseNasAddress(raw)).toMatchObject({ text, family, prefixLength });
  });

  it.each([
    '',
    'host.example',
    '192.0.2.256',
    '192.0.2.1/33',
    '192.0.2.1/',
    '192.0.2.0/-1',
    '2001:db8::/129',
    'fe80::1%eth0',
    '1.2.3.4/8a',
  ])('refuses the address %j', (raw) => {
    expect(parseNasAddress(raw)).toEqual({ error: expect.stringMatching(/^must be an IPv4 or IPv6 address/) });
  });

  it.each(['192.0.2.1/24', '2001:db8::1/64', '::ffff:192.0.2.1/120'])(
    'refuses the network %j with host bits set',
    (raw) => {
      expect(parseNasAddress(raw)).toEqual({ error: expect.stringMatching(/host bits set/) });
    },
  );

  it.each(['::ffff:10.0.0.1', '::FFFF:0a00:0001', '::ffff:192.0.2.0/120'])(
    'refuses the IPv4-mapped IPv6 address %j, which no request would match',
    (raw) => {
      expect(parseNasAddress(raw)).toEqual({ error: expect.stringMatching(/^is an IPv4-mapped IPv6 address/) });
    },
  );
});

describe('isNetwork', () => {
  it('a registered address with a prefix is a network; a single address has none', () => {
    expect(isNetwork('192.0.2.0/24')).toBe(true);
    expect(isNetwork('2001:db8::/64')).toBe(true);
    expect(isNetwork('192.0.2.10')).toBe(false);
    expect(isNetwork('2001:db8::10')).toBe(false);
  });
});

describe('shortSecretProblem', () => {
  it('asks for 16 octets at least, counted in UTF-8', () => {
    expect(shortSecretProblem('x'.repeat(16))).toBeNull();
    expect(shortSecretProblem('x'.repeat(15))).toMatch(/^must be at least 16 octets \(RFC 2865 §3\)/);
    expect(shortSecretProblem('testing123')).not.toBeNull();
    // 8 characters of 2 octets each.
    expect(shortSecretProblem('ğ'.repeat(8))).toBeNull();
  });
});
