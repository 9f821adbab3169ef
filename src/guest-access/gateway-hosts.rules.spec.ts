import {
  gatewayHostProblem,
  gatewayHostsProblem,
  isTrustedGatewayUrl,
  parseGatewayHosts,
} from './gateway-hosts.rules.js';

describe('isTrustedGatewayUrl', () => {
  it.each([
    'http://10.5.50.1/login',
    'https://172.16.0.1/login',
    'http://172.31.255.254:8080/login',
    'http://192.168.88.1/login',
    'http://100.64.0.1/login',
    'http://169.254.1.1/login',
    'http://127.0.0.1:2050/',
    'http://[fd00::1]/login',
    'http://[fe80::1]/login',
    'http://[::1]:8080/logon',
    'http://[::ffff:10.0.0.1]/login',
  ])('trusts a private or local address without a list: %s', (url) => {
    expect(isTrustedGatewayUrl(url, [])).toBe(true);
  });

  it.each([
    'https://evil.example/login',
    'http://8.8.8.8/login',
    'http://172.32.0.1/login',
    'http://100.128.0.1/login',
    'http://[2001:db8::1]/login',
    'http://10.0.0.1.evil.example/login',
    'http://192.168.0.1@evil.example/login',
    'http://user:pass@192.168.0.1/login',
    'http://evil.example\\@192.168.0.1/login',
    'javascript:alert(1)',
    'ftp://192.168.0.1/',
    'data:text/html,x',
    '//192.168.0.1/login',
    'not a url',
    '',
  ])('refuses a public host or an odd URL without a list: %s', (url) => {
    expect(isTrustedGatewayUrl(url, [])).toBe(false);
  });

  it('trusts exactly the names, wildcard suffixes, addresses and CIDRs the venue lists', () => {
    const listed = ['gw.hotel.example', '*.wlc.example', '203.0.113.7', '198.51.100.0/24', '2001:db8:1::/48'];
    expect(isTrustedGatewayUrl('https://gw.hotel.example/login', listed)).toBe(true);
    expect(isTrustedGatewayUrl('https://GW.Hotel.Example./login', listed)).toBe(true);
    expect(isTrustedGatewayUrl('https://evilgw.hotel.example/login', listed)).toBe(false);
    expect(isTrustedGatewayUrl('https://hotel.example/login', listed)).toBe(false);
    expect(isTrustedGatewayUrl('https://a.wlc.example/login.html', listed)).toBe(true);
    expect(isTrustedGatewayUrl('https://a.b.wlc.example/login.html', listed)).toBe(true);
    expect(isTrustedGatewayUrl('https://wlc.example/login.html', listed)).toBe(false);
    expect(isTrustedGatewayUrl('https://evilwlc.example/login.html', listed)).toBe(false);
    expect(isTrustedGatewayUrl('http://203.0.113.7/login', listed)).toBe(true);
    expect(isTrustedGatewayUrl('http://203.0.113.8/login', listed)).toBe(false);
    expect(isTrustedGatewayUrl('http://198.51.100.200/login', listed)).toBe(true);
    expect(isTrustedGatewayUrl('http://198.51.101.1/login', listed)).toBe(false);
    expect(isTrustedGatewayUrl('http://[2001:db8:1:ff::1]/login', listed)).toBe(true);
    expect(isTrustedGatewayUrl('http://[2001:db8:2::1]/login', listed)).toBe(false);
    expect(isTrustedGatewayUrl('http://user@gw.hotel.example/login', listed)).toBe(false);
  });

  it('reads an address in other spellings as the browser would (the URL parser normalises it)', () => {
    expect(isTrustedGatewayUrl('http://0xc0.0xa8.0.1/login', [])).toBe(true);
    expect(isTrustedGatewayUrl('http://134744072/login', [])).toBe(false);
  });
});

describe('gatewayHostProblem', () => {
  it.each(['gw.example', '*.example.com', '203.0.113.7', '2001:db8::1', '198.51.100.0/24', 'fd00::/8', 'localhost'])(
    'takes %s',
    (entry) => expect(gatewayHostProblem(entry)).toBeNull(),
  );

  it.each([
    '',
    '*',
    '*.',
    'a..b',
    '-a.example',
    'http://gw.example',
    'gw.example/login',
    '10.0.0.0/33',
    '1.2.3',
    'a_b',
  ])('refuses %j', (entry) => expect(gatewayHostProblem(entry)).not.toBeNull());

  it('reads a comma list and refuses too many entries', () => {
    expect(parseGatewayHosts(' GW.example, 10.0.0.0/8 ,,')).toEqual(['gw.example', '10.0.0.0/8']);
    expect(parseGatewayHosts('')).toEqual([]);
    expect(gatewayHostsProblem(Array.from({ length: 21 }, (_, index) => `gw${index}.example`))).toMatch(/at most/);
    expect(gatewayHostsProblem(['gw.example', 'bad host'])).toMatch(/^bad host /);
  });
});
