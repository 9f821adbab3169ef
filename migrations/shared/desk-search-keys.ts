import type { QueryRunner } from 'typeorm';

/**
 * Fills the keys the front desk's search added for the rows already there, as the service writes
 * them today (src/hotspot-users/user-search.rules.ts, src/radius/login-attempt-search.rules.ts):
 * the words of each user's name after the first, one row per venue row (the folded name from each
 * word on, cut to 64 characters, at most 16), and each login attempt's username folded. Read in
 * pages; kept here, not imported from the service, so that the migration stays as it was written.
 * The keys SQL computes alike in both dialects (a phone's or a MAC's characters backwards) are the
 * migrations' own UPDATEs.
 */
export async function fillNameWords(queryRunner: QueryRunner): Promise<void> {
  let after = '';
  for (;;) {
    const users: Array<{ id: string; name: string }> = await queryRunner.query(
      'SELECT id, name FROM hotspot_users WHERE id > ? ORDER BY id LIMIT 500',
      [after],
    );
    if (users.length === 0) return;
    const words = users.flatMap((user) => nameWordsOf(user.name).map((word) => [user.id, word]));
    if (words.length > 0) {
      // The venue rows' status and creation time copied as they are stored, whatever the dialect's format.
      const values = words.map((_, index) => (index === 0 ? 'SELECT ? AS user_id, ? AS word' : 'SELECT ?, ?'));
      await queryRunner.query(
        `INSERT INTO hotspot_user_name_words (user_id, venue_id, word, user_status, user_created_at)
         SELECT uv.user_id, uv.venue_id, w.word, uv.user_status, uv.user_created_at
         FROM hotspot_user_venues uv JOIN (${values.join(' UNION ALL ')}) w ON w.user_id = uv.user_id`,
        words.flat(),
      );
    }
    after = users[users.length - 1].id;
  }
}

export async function fillAttemptUsernames(queryRunner: QueryRunner): Promise<void> {
  let after = '';
  for (;;) {
    const rows: Array<{ username: string }> = await queryRunner.query(
      'SELECT DISTINCT username FROM login_attempts WHERE username > ? ORDER BY username LIMIT 1000',
      [after],
    );
    if (rows.length === 0) return;
    for (const { username } of rows) {
      await queryRunner.query('UPDATE login_attempts SET search_username = ? WHERE username = ?', [
        cut(folded(username), 253),
        username,
      ]);
    }
    after = rows[rows.length - 1].username;
  }
}

function nameWordsOf(name: string): string[] {
  const text = folded(name);
  const words = new Set<string>();
  for (const match of text.matchAll(/(?<=[^\p{L}\p{N}])[\p{L}\p{N}]/gu)) {
    if (words.size === 16) break;
    words.add(cut(text.slice(match.index), 64));
  }
  return [...words];
}

function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/\s+/gu, ' ').trim();
}

function cut(text: string, length: number): string {
  const points = [...text];
  return points.length <= length ? text : points.slice(0, length).join('');
}

/** `column` read backwards, for a value of at most `length` characters, in SQL both dialects run. */
export function reversedSql(column: string, length: number, concat: (parts: string[]) => string): string {
  return concat(Array.from({ length }, (_, index) => `SUBSTR(${column}, ${length - index}, 1)`));
}
