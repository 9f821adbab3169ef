import type { QueryRunner } from 'typeorm';

/**
 * Fills the search keys of every existing venue row from its user, folded as the service folds them
 * today (src/hotspot-users/user-search.rules.ts): name, username and email with case, accents and
 * white space folded, the phone as its digits. Read in pages of users by id, one UPDATE per user.
 * Kept here, not imported from the service, so that the migration stays as it was written.
 */
export async function fillUserSearchKeys(queryRunner: QueryRunner): Promise<void> {
  let after = '';
  for (;;) {
    const users: Array<{
      id: string;
      name: string;
      username: string | null;
      email: string | null;
      phone: string | null;
    }> = await queryRunner.query(
      'SELECT id, name, username, email, phone FROM hotspot_users WHERE id > ? ORDER BY id LIMIT 1000',
      [after],
    );
    if (users.length === 0) return;
    for (const user of users) {
      await queryRunner.query(
        'UPDATE hotspot_user_venues SET search_name = ?, search_username = ?, search_email = ?, search_phone = ? WHERE user_id = ?',
        [
          cut(folded(user.name), 255),
          user.username === null ? null : cut(folded(user.username), 64),
          user.email === null ? null : cut(folded(user.email), 254),
          user.phone === null ? null : cut(user.phone.replace(/\D/g, ''), 16),
          user.id,
        ],
      );
    }
    after = users[users.length - 1].id;
  }
}

function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/\s+/gu, ' ').trim();
}

function cut(text: string, length: number): string {
  const points = [...text];
  return points.length <= length ? text : points.slice(0, length).join('');
}
