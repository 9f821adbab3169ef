/** A venue's colours as the CSS variables portal.css uses; only `#rrggbb` values (the settings allow no other). */
export function themeCss(colours: { accent: string | null; background: string | null; text: string | null }): string {
  const lines = Object.entries({ accent: colours.accent, background: colours.background, text: colours.text })
    .filter((entry): entry is [string, string] => entry[1] !== null && /^#[0-9a-fA-F]{6}$/.test(entry[1]))
    .map(([name, value]) => `  --${name}: ${value};`);
  return lines.length === 0 ? '' : `:root {\n${lines.join('\n')}\n}\n`;
}
