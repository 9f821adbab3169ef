import { runCli, contextRuntime } from './support/cli-io.js';
import { describeEachDatabase } from './support/test-app.js';

/**
 * A token with the radius permission (the FreeRADIUS back end's) opens the /radius/ routes only: every
 * route of the REST API answers it 403, the status route included, and it cannot be mixed with an
 * API level.
 */
describeEachDatabase('the radius permission', (current) => {
  it('a radius token gets 403 on GET /api/v1 and on the user routes, where a read token gets 200', async () => {
    const radius = await current().createToken({ permissions: ['radius'] });
    const read = await current().createToken({ permissions: ['read'] });
    for (const path of ['/api/v1', '/api/v1/hotspot-users?venueId=venue-a']) {
      const refused = await current().http.get(path).set('Authorization', `Bearer ${radius}`).expect(403);
      expect(refused.body).toEqual({ success: false, message: 'Forbidden' });
      await current().http.get(path).set('Authorization', `Bearer ${read}`).expect(200);
    }
  });

  it('token create --permissions radius works alone and is a usage error combined with read', async () => {
    const run = (...argv: string[]) => runCli(contextRuntime(current().app), 'token', ...argv);
    const alone = await run('create', '--name', 'freeradius', '--permissions', 'radius', '--json');
    expect(alone.code).toBe(0);
    expect(JSON.parse(alone.stdout)).toMatchObject({ name: 'freeradius', permissions: ['radius'] });

    const mixed = await run('create', '--name', 'mixed', '--permissions', 'radius,read');
    expect(mixed.code).toBe(2);
    expect(mixed.stdout).toBe('');
    expect(mixed.stderr).toContain('radius cannot be combined with read, write or delete');
  });
});
