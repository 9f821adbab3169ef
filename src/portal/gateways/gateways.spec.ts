import { fasItems, openndsToken, parseOpennds } from './opennds.js';
import { gatewayContextOf, handoverOf } from './gateways.js';
import { uamPassword } from './coova.js';
import { httpUrl, ipOf, macOf, NO_GATEWAY } from './gateway.js';

const CREDENTIALS = { username: 'guest-1', password: 'Pass2345' };
const LANDING = 'https://portal.example/portal/lobby/status';

describe('gateway values', () => {
  it('reads MACs in their usual forms, IPs and http(s) URLs only', () => {
    expect(macOf('aa-bb-cc-dd-ee-0f')).toBe('AA:BB:CC:DD:EE:0F');
    expect(macOf('aabbccddee0f')).toBe('AA:BB:CC:DD:EE:0F');
    expect(macOf('aa:bb')).toBeNull();
    expect(ipOf('10.0.0.300')).toBeNull();
    expect(ipOf('fe80::1')).toBe('fe80::1');
    expect(httpUrl('javascript:alert(1)')).toBeNull();
    expect(httpUrl('http://user:pw@10.0.0.1/login')).toBeNull();
    expect(httpUrl('https://10.0.0.1/login')).toBe('https://10.0.0.1/login');
  });
});

describe('MikroTik', () => {
  const query = {
    'link-login-only': 'http://10.5.50.1/login',
    mac: '02:00:00:00:00:0A',
    ip: '10.5.50.10',
    dst: 'http://example.com/',
    'link-logout': 'http://10.5.50.1/logout',
  };

  it('reads the login page variables', () => {
    expect(gatewayContextOf(query)).toEqual({
      vendor: 'mikrotik',
      mac: '02:00:00:00:00:0A',
      ip: '10.5.50.10',
      loginUrl: 'http://10.5.50.1/login',
      fields: [],
      landingUrl: 'http://example.com/',
      logoutUrl: 'http://10.5.50.1/logout',
      opennds: null,
    });
  });

  it('hands over with username, password and dst to link-login-only', () => {
    const context = gatewayContextOf(query) ?? NO_GATEWAY;
    expect(handoverOf(context, CREDENTIALS, LANDING, null)).toEqual({
      kind: 'form',
      action: 'http://10.5.50.1/login',
      method: 'post',
      fields: [
        ['username', 'guest-1'],
        ['password', 'Pass2345'],
        ['dst', 'http://example.com/'],
        ['popup', 'false'],
      ],
    });
  });
});

describe('openNDS (FAS level 1)', () => {
  const hid = 'a'.repeat(64);
  const fasText =
    `hid=${hid}, clientip=192.168.8.20, clientmac=02:00:00:00:00:0b, client_type=cpd_can, gatewayname=Lobby, ` +
    'gatewayurl=http%3a%2f%2f192.168.8.1%3a2050%2f, version=9.10.0, gatewayaddress=192.168.8.1:2050, ' +
    'gatewaymac=020000000001, originurl=http%3a%2f%2fexample.com%2fnews, clientif=veth1, themespec=(null), (null)';
  const fas = Buffer.from(fasText).toString('base64');

  it('decodes the fas items, skipping those without =', () => {
    const items = fasItems(fas);
    expect(items.get('gatewayaddress')).toBe('192.168.8.1:2050');
    expect(items.has('(null)')).toBe(false);
    expect(parseOpennds({ fas })).toEqual({
      vendor: 'opennds',
      mac: '02:00:00:00:00:0B',
      ip: '192.168.8.20',
      loginUrl: null,
      fields: [],
      landingUrl: 'http://example.com/news',
      logoutUrl: null,
      opennds: { hid, gatewayAddress: '192.168.8.1:2050' },
    });
  });

  it('refuses a fas without a hid or gateway address', () => {
    expect(parseOpennds({ fas: Buffer.from('clientip=1.2.3.4').toString('base64') })).toBeNull();
  });

  it('the token is sha256hex(hid + faskey), and the hand-back a redirect to opennds_auth', () => {
    // echo -n abckey | sha256sum
    expect(openndsToken('abc', 'key')).toBe('afcb12512ff218c850c8672f2f984f34d86f7739c5f4bee205442eb5a6ad6fff');
    const context = parseOpennds({ fas }) ?? NO_GATEWAY;
    const handover = handoverOf(context, CREDENTIALS, LANDING, 'secret-faskey');
    expect(handover).toEqual({
      kind: 'redirect',
      location:
        `http://192.168.8.1:2050/opennds_auth/?tok=${openndsToken(hid, 'secret-faskey')}` +
        '&redir=http%3A%2F%2Fexample.com%2Fnews',
    });
    expect(handoverOf(context, CREDENTIALS, LANDING, null)).toBeNull();
  });
});

describe('CoovaChilli / UAM', () => {
  const query = {
    res: 'notyet',
    uamip: '10.1.0.1',
    uamport: '3990',
    challenge: '00112233445566778899aabbccddeeff',
    mac: '02-00-00-00-00-0C',
    ip: '10.1.0.5',
    userurl: 'http://example.com/',
  };

  it('reads the UAM parameters and hands over to /logon with the password under the challenge', () => {
    const context = gatewayContextOf(query) ?? NO_GATEWAY;
    expect(context).toMatchObject({
      vendor: 'coova',
      mac: '02:00:00:00:00:0C',
      loginUrl: 'http://10.1.0.1:3990/logon',
    });
    expect(handoverOf(context, CREDENTIALS, LANDING, null)).toEqual({
      kind: 'form',
      action: 'http://10.1.0.1:3990/logon',
      method: 'get',
      fields: [
        ['username', 'guest-1'],
        ['password', uamPassword('Pass2345', '00112233445566778899aabbccddeeff')],
        ['userurl', 'http://example.com/'],
      ],
    });
  });

  it('encodes the password byte by byte against the challenge', () => {
    expect(uamPassword('AB', '0102')).toBe(Buffer.from([0x41 ^ 1, 0x42 ^ 2]).toString('hex'));
    expect(uamPassword('A', '00', 'secret')).toHaveLength(2);
  });
});

describe('pfSense / OPNsense', () => {
  it('posts auth_user and auth_pass with the zone to the portal action', () => {
    const context =
      gatewayContextOf({
        zone: 'guests',
        redirurl: 'http://example.com/',
        portal_action: 'http://192.168.1.1:8002/index.php?zone=guests',
      }) ?? NO_GATEWAY;
    expect(handoverOf(context, CREDENTIALS, LANDING, null)).toEqual({
      kind: 'form',
      action: 'http://192.168.1.1:8002/index.php?zone=guests',
      method: 'post',
      fields: [
        ['auth_user', 'guest-1'],
        ['auth_pass', 'Pass2345'],
        ['zone', 'guests'],
        ['redirurl', 'http://example.com/'],
        ['accept', 'Login'],
      ],
    });
  });
});

describe('Cisco and Aruba external web authentication', () => {
  it('Cisco: buttonClicked=4 with the credentials to switch_url', () => {
    const context =
      gatewayContextOf({
        switch_url: 'https://192.0.2.1/login.html',
        client_mac: '02:00:00:00:00:0d',
        wlan: 'Guest',
      }) ?? NO_GATEWAY;
    expect(context.mac).toBe('02:00:00:00:00:0D');
    expect(handoverOf(context, CREDENTIALS, LANDING, null)).toEqual({
      kind: 'form',
      action: 'https://192.0.2.1/login.html',
      method: 'post',
      fields: [
        ['buttonClicked', '4'],
        ['err_flag', '0'],
        ['username', 'guest-1'],
        ['password', 'Pass2345'],
        ['redirect_url', LANDING],
      ],
    });
  });

  it('Aruba: user and password with cmd=authenticate to the controller', () => {
    const context =
      gatewayContextOf({
        cmd: 'login',
        mac: '02:00:00:00:00:0e',
        switchip: 'securelogin.example.net',
        url: 'http://a.example/',
      }) ?? NO_GATEWAY;
    expect(handoverOf(context, CREDENTIALS, LANDING, null)).toEqual({
      kind: 'form',
      action: 'https://securelogin.example.net/cgi-bin/login',
      method: 'post',
      fields: [
        ['user', 'guest-1'],
        ['password', 'Pass2345'],
        ['cmd', 'authenticate'],
        ['url', 'http://a.example/'],
      ],
    });
  });
});

describe('no gateway', () => {
  it('is no context, and the hand-over goes to the landing page', () => {
    expect(gatewayContextOf({ lang: 'tr' })).toBeNull();
    expect(handoverOf(NO_GATEWAY, CREDENTIALS, LANDING, null)).toEqual({ kind: 'redirect', location: LANDING });
  });
});
