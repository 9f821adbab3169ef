import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import type { PlanDto } from '../src/plans/dto/plan.response.js';
import { PlanVenueEntity } from '../src/plans/entities/plan-venue.entity.js';
import { PlanEntity } from '../src/plans/entities/plan.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PLANS = '/api/v1/plans';

const NO_LIMITS = {
  downloadRate: null,
  uploadRate: null,
  quotaBytes: null,
  quotaPeriod: null,
  dailyTimeSeconds: null,
  totalTimeSeconds: null,
  idleTimeoutSeconds: null,
  maxSessions: null,
  maxDevices: null,
  interimIntervalSeconds: null,
};

const FREE = {
  name: 'Free 5 Mbit',
  venueIds: ['venue-a'],
  downloadRate: 5_000_000,
  uploadRate: 1_000_000,
  quotaBytes: 1_073_741_824,
  quotaPeriod: 'day',
  dailyTimeSeconds: 7200,
  idleTimeoutSeconds: 600,
  maxSessions: 2,
  maxDevices: 3,
  interimIntervalSeconds: 300,
};

for (const kind of databaseKinds()) {
  describe(`/api/v1/plans [${kind}]`, () => {
    let testApp: TestApp;
    let admin: string;
    let venueA: string;
    let venueB: string;
    let reader: string;

    beforeAll(async () => {
      testApp = await startTestApp(kind);
      admin = await testApp.createToken({ permissions: ['write'] });
      venueA = await testApp.createToken({ permissions: ['write'], venueIds: ['venue-a'] });
      venueB = await testApp.createToken({ permissions: ['write'], venueIds: ['venue-b'] });
      reader = await testApp.createToken({ permissions: ['read'] });
    }, 60_000);
    afterAll(() => testApp?.close());

    const as = (token: string) => ({
      post: (body: object) => testApp.http.post(PLANS).set('Authorization', `Bearer ${token}`).send(body),
      put: (id: string, body: object) =>
        testApp.http.put(`${PLANS}/${id}`).set('Authorization', `Bearer ${token}`).send(body),
      get: (path = '') => testApp.http.get(`${PLANS}${path}`).set('Authorization', `Bearer ${token}`),
      delete: (id: string) => testApp.http.delete(`${PLANS}/${id}`).set('Authorization', `Bearer ${token}`),
    });
    const created = async (body: object, token = admin): Promise<PlanDto> => {
      const response = await as(token).post(body);
      expect(response.status).toBe(201);
      return response.body.data as PlanDto;
    };
    const auditOf = (id: string) =>
      testApp.dataSource
        .getRepository(AuditEventEntity)
        .find({ where: { targetId: id }, order: { occurredAt: 'ASC', id: 'ASC' } });

    it('creates a plan: the record with every limit, Location, the rows and one plan.create audit row', async () => {
      const response = await as(venueA).post(FREE);
      expect(response.status).toBe(201);
      const plan = response.body.data as PlanDto;
      expect(plan).toEqual({
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        ...NO_LIMITS,
        ...FREE,
        createdAt: expect.any(String),
        updatedAt: plan.createdAt,
      });
      expect(response.headers.location).toBe(`${PLANS}/${plan._id}`);
      const row = await testApp.dataSource.getRepository(PlanEntity).findOneByOrFail({ id: plan._id });
      expect(row).toMatchObject({ name: 'Free 5 Mbit', quotaBytes: 1_073_741_824, quotaPeriod: 'day' });
      const venues = await testApp.dataSource.getRepository(PlanVenueEntity).findBy({ planId: plan._id });
      expect(venues.map((venue) => venue.venueId)).toEqual(['venue-a']);
      const audit = await auditOf(plan._id);
      expect(audit.map((event) => [event.action, event.targetType, event.actorType, event.venueIds])).toEqual([
        ['plan.create', 'plan', 'token', ['venue-a']],
      ]);
      const read = await as(reader).get(`/${plan._id}`).expect(200);
      expect(read.body.data).toEqual(plan);
    });

    it('takes a plan without limits; repeated venues are dropped, the order kept', async () => {
      const plan = await created({ name: '  Open  ', venueIds: ['venue-b', 'venue-a', 'venue-b'] });
      expect(plan).toMatchObject({ name: 'Open', venueIds: ['venue-b', 'venue-a'], ...NO_LIMITS });
    });

    it.each([
      [{ venueIds: ['venue-a'] }, 'name', 'name is required'],
      [{ name: 'x' }, 'venueIds', 'venueIds is required'],
      [{ name: 'x', venueIds: [] }, 'venueIds', 'venueIds must be a non-empty array of at most 50 venue ids'],
      [{ name: '', venueIds: ['venue-a'] }, 'name', 'name must be 1-100 characters'],
      [{ name: 'x'.repeat(101), venueIds: ['venue-a'] }, 'name', 'name must be 1-100 characters'],
      [
        { name: 'x', venueIds: ['venue-a'], downloadRate: '5000000' },
        'downloadRate',
        'downloadRate must be a whole number of bit/s from 1000 to 4294967295, or null',
      ],
      [
        { name: 'x', venueIds: ['venue-a'], uploadRate: 4_294_967_296 },
        'uploadRate',
        'uploadRate must be a whole number of bit/s from 1000 to 4294967295, or null',
      ],
      [
        { name: 'x', venueIds: ['venue-a'], dailyTimeSeconds: 86_401 },
        'dailyTimeSeconds',
        'dailyTimeSeconds must be a whole number of seconds from 60 to 86400, or null',
      ],
      [
        { name: 'x', venueIds: ['venue-a'], maxSessions: 1.5 },
        'maxSessions',
        'maxSessions must be a whole number of sessions from 1 to 1000, or null',
      ],
      [
        { name: 'x', venueIds: ['venue-a'], quotaPeriod: 'week', quotaBytes: 1000 },
        'quotaPeriod',
        'quotaPeriod must be one of session, day, total, or null',
      ],
      [
        { name: 'x', venueIds: ['venue-a'], quotaBytes: 1000 },
        'quotaPeriod',
        'quotaPeriod is required with quotaBytes (session, day or total)',
      ],
      [
        { name: 'x', venueIds: ['venue-a'], quotaPeriod: 'day' },
        'quotaPeriod',
        'quotaPeriod is only accepted with quotaBytes',
      ],
      [{ name: 'x', venueIds: ['venue-a'], speed: 1 }, 'speed', 'speed is not an allowed field'],
    ])('refuses %j with 400 naming %s', async (body, field, message) => {
      const response = await as(admin).post(body);
      expect(response.status).toBe(400);
      expect(response.body.errors).toContainEqual({ field, message });
      expect(await testApp.dataSource.getRepository(PlanEntity).countBy({ name: 'x' })).toBe(0);
    });

    it('refuses a venue outside a restricted token with 403, and needs write permission', async () => {
      const outside = await as(venueA).post({ name: 'Elsewhere', venueIds: ['venue-a', 'venue-b'] });
      expect(outside.status).toBe(403);
      expect(outside.body.errors).toEqual([
        { field: 'venueIds', message: "venue venue-b is outside this token's venues" },
      ]);
      expect((await as(reader).post({ name: 'Read only', venueIds: ['venue-a'] })).status).toBe(403);
    });

    it('shows a restricted token only the plans whose venues are all its own; others are 404', async () => {
      const onlyA = await created({ name: 'A only', venueIds: ['venue-a'] });
      const chain = await created({ name: 'Chain', venueIds: ['venue-a', 'venue-b'] });
      const listA = await as(venueA).get().expect(200);
      const namesA = (listA.body.data as PlanDto[]).map((plan) => plan._id);
      expect(namesA).toContain(onlyA._id);
      expect(namesA).not.toContain(chain._id);
      expect((await as(venueA).get(`/${chain._id}`)).status).toBe(404);
      expect((await as(venueB).get(`/${onlyA._id}`)).status).toBe(404);
      expect((await as(venueA).put(chain._id, { name: 'Mine' })).status).toBe(404);
      expect((await as(venueA).delete(chain._id)).status).toBe(404);
      const all = await as(admin).get('?venueId=venue-b').expect(200);
      const namesB = (all.body.data as PlanDto[]).map((plan) => plan.name);
      expect(namesB).toContain('Chain');
      expect(namesB).not.toContain('A only');
      expect(namesB).toEqual([...namesB].sort());
      expect((await as(venueA).get('?venueId=venue-b')).status).toBe(403);
      expect((await as(admin).get('/no-such-plan')).status).toBe(404);
    });

    it('changes only what a PUT names, clears a limit with null, audits the changed fields', async () => {
      const plan = await created(FREE);
      const response = await as(admin).put(plan._id, { downloadRate: 10_000_000, maxDevices: null, name: 'Free 10' });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...plan,
        name: 'Free 10',
        downloadRate: 10_000_000,
        maxDevices: null,
        updatedAt: expect.any(String),
      });
      expect((await as(admin).get(`/${plan._id}`)).body.data).toEqual(response.body.data);
      const audit = await auditOf(plan._id);
      expect(audit.map((event) => [event.action, event.changedFields])).toEqual([
        ['plan.create', null],
        ['plan.update', ['downloadRate', 'maxDevices', 'name']],
      ]);
      const cleared = await as(admin).put(plan._id, { quotaBytes: null });
      expect(cleared.status).toBe(400);
      expect(cleared.body.errors).toEqual([
        { field: 'quotaPeriod', message: 'quotaPeriod is only accepted with quotaBytes' },
      ]);
      const both = await as(admin).put(plan._id, { quotaBytes: null, quotaPeriod: null }).expect(200);
      expect(both.body.data).toMatchObject({ quotaBytes: null, quotaPeriod: null });
      expect((await as(admin).put(plan._id, { name: null })).status).toBe(400);
    });

    it('deletes an unused plan (plan.delete); a plan in use is 409 saying what uses it', async () => {
      const unused = await created({ name: 'Unused', venueIds: ['venue-a'] });
      const gone = await as(admin).delete(unused._id);
      expect(gone.status).toBe(200);
      expect(gone.body).toEqual({ success: true, message: 'Plan deleted' });
      expect((await as(admin).get(`/${unused._id}`)).status).toBe(404);
      expect(await testApp.dataSource.getRepository(PlanVenueEntity).countBy({ planId: unused._id })).toBe(0);
      expect((await auditOf(unused._id)).map((event) => event.action)).toEqual(['plan.create', 'plan.delete']);

      const used = await created({ name: 'Used', venueIds: ['venue-a', 'venue-b'] });
      const user = await testApp.http
        .post('/api/v1/hotspot-users')
        .set('Authorization', `Bearer ${admin}`)
        .send({ name: 'On plan', loginMethod: 'guest', venueIds: ['venue-a'] })
        .expect(201);
      await testApp.dataSource
        .getRepository(HotspotUserEntity)
        .update({ id: user.body.data._id as string }, { planId: used._id });
      const refused = await as(admin).delete(used._id);
      expect(refused.status).toBe(409);
      expect(refused.body.errors).toEqual([{ field: 'id', message: 'the plan is in use: 1 user is on it' }]);
      const narrowed = await as(admin).put(used._id, { venueIds: ['venue-b'] });
      expect(narrowed.status).toBe(409);
      expect(narrowed.body.errors).toEqual([
        {
          field: 'venueIds',
          message: 'the plan is in use in venue venue-a (a user or batch on it, or its default plan)',
        },
      ]);
      await as(admin)
        .put(used._id, { venueIds: ['venue-a'] })
        .expect(200);
      expect((await as(admin).get(`/${used._id}`)).body.data.venueIds).toEqual(['venue-a']);
    });
  });
}
