/**
 * The text of a Wi-Fi join QR code, in the `WIFI:` format phones read (the ZXing barcode project's
 * "Wi-Fi network config" format, which iOS and Android cameras follow): `WIFI:T:WPA;S:<ssid>;P:<passphrase>;;`
 * for a network with a passphrase, `WIFI:T:nopass;S:<ssid>;;` for an open one (a captive portal's
 * usual hotspot). A backslash, `;`, `,`, `:` and `"` in the SSID or the passphrase are escaped with a
 * backslash.
 */
export function wifiJoinText(ssid: string, passphrase: string | null): string {
  if (passphrase === null || passphrase === '') return `WIFI:T:nopass;S:${wifiEscape(ssid)};;`;
  return `WIFI:T:WPA;S:${wifiEscape(ssid)};P:${wifiEscape(passphrase)};;`;
}

function wifiEscape(text: string): string {
  return text.replace(/[\\;,:"]/g, (char) => `\\${char}`);
}
