import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `hotspot logins` lists login attempts newest first by venue, user, username or MAC: one index
 * each. The one reason recorded before (an unknown NAS) takes the name authorize gives it.
 */
export class LoginAttemptsLookup1796544000000 implements MigrationInterface {
  name = 'LoginAttemptsLookup1796544000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`login_attempts\`
        ADD INDEX \`idx_login_attempts_venue\` (\`venue_id\`, \`created_at\`),
        ADD INDEX \`idx_login_attempts_user\` (\`user_id\`, \`created_at\`),
        ADD INDEX \`idx_login_attempts_username\` (\`username\`, \`created_at\`),
        ADD INDEX \`idx_login_attempts_mac\` (\`mac_address\`, \`created_at\`)`,
    );
    await queryRunner.query("UPDATE `login_attempts` SET `reason` = 'unknownNas' WHERE `reason` = 'unknown NAS'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("UPDATE `login_attempts` SET `reason` = 'unknown NAS' WHERE `reason` = 'unknownNas'");
    await queryRunner.query(
      `ALTER TABLE \`login_attempts\`
        DROP INDEX \`idx_login_attempts_venue\`,
        DROP INDEX \`idx_login_attempts_user\`,
        DROP INDEX \`idx_login_attempts_username\`,
        DROP INDEX \`idx_login_attempts_mac\``,
    );
  }
}
