import { qrCodeSvg } from './qr-svg.js';

describe('qrCodeSvg', () => {
  it('draws a square SVG with dark modules, no style and no outside reference', () => {
    const svg = qrCodeSvg('otpauth://totp/Hotspot:a%40b?secret=MZXW6YTBOI', 'QR "code" <x>');
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 (\d+) \1"/);
    expect(svg).toContain('aria-label="QR &#34;code&#34; &#60;x&#62;"');
    expect(svg).toMatch(/<path d="(M\d+ \d+h1v1h-1z)+"/);
    expect(svg).not.toMatch(/style|href|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });
});
