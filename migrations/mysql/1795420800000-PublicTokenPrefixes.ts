import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The rule of that release, kept here so later changes to the code do not change this migration. */
const PUBLIC_PREFIX = /^[a-z][a-z0-9]{1,6}_/;

/**
 * Data only: token listings showed up to 8 characters of a token's secret part (`hsp_` and 8 more of
 * a generated token, the first 4 of a BOOTSTRAP_TOKEN). Each stored prefix becomes the public prefix
 * it starts with (`hsp_`), or nothing.
 */
export class PublicTokenPrefixes1795420800000 implements MigrationInterface {
  name = 'PublicTokenPrefixes1795420800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const tokens: Array<{ id: string; prefix: string }> = await queryRunner.query('SELECT id, prefix FROM api_tokens');
    for (const token of tokens) {
      const prefix = PUBLIC_PREFIX.exec(token.prefix)?.[0] ?? '';
      if (prefix !== token.prefix) {
        await queryRunner.query('UPDATE api_tokens SET prefix = ? WHERE id = ?', [prefix, token.id]);
      }
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: the characters removed are not kept anywhere (only hashes of token values
    // are stored), and the shorter prefixes suit the previous release as well.
  }
}
