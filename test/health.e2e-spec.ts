import { readFileSync } from 'node:fs';
import { describeEachDatabase, startTestApp } from './support/test-app.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

describeEachDatabase('health probes', (current) => {
  it('GET /healthz is 200 {status: ok} without a token', async () => {
    const response = await current().http.get('/healthz').expect(200);
    // Sources run in place know no commit (only a build does).
    expect(response.body).toEqual({ status: 'ok', version: PACKAGE_VERSION, commit: null });
    expect(response.headers['x-service-version']).toBe(PACKAGE_VERSION);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('GET /readyz is 200 without a token while the database answers', async () => {
    const response = await current().http.get('/readyz').expect(200);
    expect(response.body).toEqual({ status: 'ready', database: 'up' });
  });

  it('every answer, of the API too, names the version in X-Service-Version', async () => {
    for (const path of ['/api/v1', '/api/v1/hotspot-users', '/no-such-path']) {
      const response = await current().http.get(path);
      expect(response.headers['x-service-version']).toBe(PACKAGE_VERSION);
    }
  });

  it('the probes ignore a garbage Authorization header', async () => {
    await current().http.get('/healthz').set('Authorization', 'Bearer nonsense').expect(200);
    await current().http.get('/readyz').set('Authorization', 'Basic xyz').expect(200);
  });

  it('once the database is gone: /readyz is 503 {status: not ready}, /healthz stays 200, the API says 503', async () => {
    const dedicated = await startTestApp(current().kind, { LOG_LEVEL: 'fatal' });
    try {
      const token = await dedicated.createToken();
      await dedicated.http.get('/readyz').expect(200);
      await dedicated.dataSource.destroy();

      const started = Date.now();
      const response = await dedicated.http.get('/readyz').expect(503);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(response.body).toEqual({ status: 'not ready', database: 'down' });
      await dedicated.http.get('/healthz').expect(200);

      // The token was never used, so checking it needs the database.
      const api = await dedicated.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(503);
      expect(api.body).toEqual({ success: false, message: 'Service Unavailable' });
      expect(api.headers['x-request-id']).toBeDefined();
    } finally {
      await dedicated.close();
    }
  });
});
