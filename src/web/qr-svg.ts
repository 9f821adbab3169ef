import qrcode from 'qrcode-generator';

/** Modules of light border around the code, as the QR specification asks. */
const QUIET_ZONE = 4;

/**
 * `text` as a QR code in SVG, drawn here so that the page asks no other site for it: one path of
 * dark modules, without any style attribute (the console's Content-Security-Policy allows none).
 */
export function qrCodeSvg(text: string, label: string): string {
  const code = qrcode(0, 'M');
  code.addData(text, 'Byte');
  code.make();
  const count = code.getModuleCount();
  const size = count + 2 * QUIET_ZONE;
  let path = '';
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (code.isDark(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escapeXml(label)}"` +
    ` class="qr" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/>` +
    `<path d="${path}" fill="#000"/></svg>`
  );
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
