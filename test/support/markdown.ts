/**
 * Just enough Markdown for the documentation tests: which lines are prose (not fenced code, not a
 * table row), the headings' anchors as GitHub makes them, the relative links, and tagged fenced blocks.
 */

export interface MarkdownLine {
  /** 1-based. */
  number: number;
  text: string;
  /** Inside a fenced code block, its fences included. */
  inFence: boolean;
  /** A table row (its first non-blank character is `|`). */
  inTable: boolean;
}

export function markdownLines(source: string): MarkdownLine[] {
  let fence: string | null = null;
  return source.split('\n').map((text, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    let inFence = fence !== null;
    if (marker !== undefined) {
      if (fence === null) fence = marker[0];
      else if (marker[0] === fence) fence = null;
      inFence = true;
    }
    return { number: index + 1, text, inFence, inTable: !inFence && text.trimStart().startsWith('|') };
  });
}

/**
 * GitHub's anchor for a heading: its text without link targets and formatting, lower-cased, every
 * character but letters, digits, `_`, `-` and spaces dropped, spaces turned into `-`; a repeated
 * anchor gets `-1`, `-2`… in order.
 */
export function headingAnchors(source: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of markdownLines(source)) {
    if (line.inFence) continue;
    const heading = /^#{1,6} +(.*?)[ #]*$/.exec(line.text)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface MarkdownLink {
  line: number;
  target: string;
}

/** The targets of inline links and images and of link definitions, outside code. */
export function markdownLinks(source: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const line of markdownLines(source)) {
    if (line.inFence) continue;
    const prose = line.text.replace(/(`+)[^`]*?\1/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: line.number, target: match[1] });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (definition !== null) links.push({ line: line.number, target: definition[1] });
  }
  return links;
}

/** A link that leaves the repository (a scheme such as `https:` or `mailto:`, or `//host`). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/**
 * The bodies of the fenced blocks whose info string is `info`, in order: a language and a tag, such as
 * `sh tour`, which GitHub shows as `sh` and Prettier keeps (a marker line before the fence would not
 * do: Prettier puts a blank line between it and the block).
 */
export function taggedBlocks(source: string, info: string): string[] {
  const lines = source.split('\n');
  const blocks: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (lines[index].trim() !== '```' + info) continue;
    const end = lines.indexOf('```', index + 1);
    if (end === -1) throw new Error(`line ${index + 1}: the block never ends`);
    blocks.push(lines.slice(index + 1, end).join('\n'));
    index = end;
  }
  return blocks;
}
