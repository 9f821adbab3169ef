import { describeEachDatabase } from './support/test-app.js';

describeEachDatabase('GET /api/v1', (current) => {
  it('answers a valid token with the status message', async () => {
    const { http, adminToken } = current();
    const response = await http.get('/api/v1').set('Authorization', `Bearer ${adminToken}`).expect(200);
    expect(response.body).toEqual({ success: true, message: 'Server API aktif' });
  });

  it('accepts a read-only token', async () => {
    const token = await current().createToken({ permissions: ['read'] });
    await current().http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);
  });

  it('refuses a missing token with 401 and WWW-Authenticate', async () => {
    const response = await current().http.get('/api/v1').expect(401);
    expect(response.body).toEqual({ success: false, message: 'Unauthorized' });
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses query parameters, each named', async () => {
    const { http, adminToken } = current();
    const response = await http
      .get('/api/v1?foo=1&toString=2')
      .set('Authorization', `Bearer ${adminToken}`)
      .expect(400);
    expect(response.body).toEqual({
      success: false,
      message: 'Validation error',
      errors: [
        { field: 'foo', message: 'foo is not an allowed field' },
        { field: 'toString', message: 'toString is not an allowed field' },
      ],
    });
  });
});
