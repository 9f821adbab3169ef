import { wifiJoinText } from './wifi.js';

describe('wifiJoinText', () => {
  it('joins an open network (no passphrase) as nopass', () => {
    expect(wifiJoinText('Grand Hotel Guest', null)).toBe('WIFI:T:nopass;S:Grand Hotel Guest;;');
    expect(wifiJoinText('Lobby', '')).toBe('WIFI:T:nopass;S:Lobby;;');
  });

  it('joins a WPA network with its passphrase', () => {
    expect(wifiJoinText('Lobby', 'sunrise-42')).toBe('WIFI:T:WPA;S:Lobby;P:sunrise-42;;');
  });

  it.each([
    ['a;b', 'a\\;b'],
    ['a,b', 'a\\,b'],
    ['a:b', 'a\\:b'],
    ['a"b', 'a\\"b'],
    ['a\\b', 'a\\\\b'],
    ['Çay Bahçesi', 'Çay Bahçesi'],
  ])('escapes %j in the SSID and the passphrase as %j', (raw, escaped) => {
    expect(wifiJoinText(raw, null)).toBe(`WIFI:T:nopass;S:${escaped};;`);
    expect(wifiJoinText('x', raw)).toBe(`WIFI:T:WPA;S:x;P:${escaped};;`);
  });
});
