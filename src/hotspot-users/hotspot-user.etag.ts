/**
 * ETag and If-Match of a user. The ETag is strong and comes from the user's version, which every
 * change of the user's own row increments; devices, which the network side updates, are not part of it.
 */

export const PRECONDITION_FAILED = 'Precondition Failed';
export const IF_MATCH_PROBLEM = 'If-Match must be * or a list of entity-tags such as "v3"';

/** One entity-tag of an If-Match list. */
export interface EntityTag {
  weak: boolean;
  /** The tag with its quotes, as an ETag header carries it. */
  tag: string;
}

/** A parsed If-Match: any existing user, or one of these tags. */
export type IfMatch = '*' | EntityTag[];

export function etagOf(version: number): string {
  return `"v${version}"`;
}

const EMPTY_ITEM = /^[ \t]*,/;
const ENTITY_TAG_ITEM = /^[ \t]*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")[ \t]*(?:,|$)/;

/** RFC 9110 If-Match: `*` or a comma-separated list of entity-tags; null when the value is malformed. */
export function parseIfMatch(value: string): IfMatch | null {
  if (value.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  let rest = value;
  while (rest.trim() !== '') {
    const empty = EMPTY_ITEM.exec(rest);
    const item = empty === null ? ENTITY_TAG_ITEM.exec(rest) : null;
    if (empty === null && item === null) return null;
    if (item !== null) tags.push({ weak: item[1] !== undefined, tag: item[2] });
    rest = rest.slice((empty ?? item)![0].length);
  }
  return tags.length === 0 ? null : tags;
}

/**
 * Whether a change may go ahead on a user at `version`: no If-Match, `*` (the user exists), or one of
 * its tags equal to the user's ETag. If-Match compares strongly, so a weak tag never matches.
 */
export function ifMatchAllows(condition: IfMatch | null, version: number): boolean {
  if (condition === null || condition === '*') return true;
  const current = etagOf(version);
  return condition.some(({ weak, tag }) => !weak && tag === current);
}
