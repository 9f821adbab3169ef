import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import type { PlanDto } from '../src/plans/dto/plan.response.js';
import { PlanVenueEntity } from '../src/plans/entities/plan-venue.entity.js';
import { PlanEntity } from '../src/plans/entities/plan.entity.js';
import type { BatchDetailDto } from '../src/batches/dto/batch.response.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { VenueEntity } from '../src/venues/entities/venue.entity.js';
import { contextRuntime, runCli } from './support/cli-io.js';
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

    describe('a plan on users, batches and venues', () => {
      const users = (token = admin) => ({
        post: (body: object) =>
          testApp.http.post('/api/v1/hotspot-users').set('Authorization', `Bearer ${token}`).send(body),
        put: (id: string, body: object) =>
          testApp.http.put(`/api/v1/hotspot-users/${id}`).set('Authorization', `Bearer ${token}`).send(body),
        get: (id: string) => testApp.http.get(`/api/v1/hotspot-users/${id}`).set('Authorization', `Bearer ${token}`),
      });
      const guest = (fields: object) => ({ name: 'Guest', loginMethod: 'guest', venueIds: ['venue-a'], ...fields });

      it('puts a user on a plan at create and by PUT; the record shows planId; the audit names it', async () => {
        const plan = await created({ name: 'Lobby', venueIds: ['venue-a', 'venue-b'] });
        const response = await users(venueA).post(guest({ planId: plan._id }));
        expect(response.status).toBe(201);
        expect(response.body.data.planId).toBe(plan._id);
        const id = response.body.data._id as string;
        expect((await users(venueA).get(id)).body.data.planId).toBe(plan._id);
        const row = await testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id });
        expect(row.planId).toBe(plan._id);

        const other = await created({ name: 'Paid', venueIds: ['venue-a'] });
        const moved = await users(venueA).put(id, { planId: other._id }).expect(200);
        expect(moved.body.data.planId).toBe(other._id);
        const cleared = await users(venueA).put(id, { planId: null }).expect(200);
        expect(cleared.body.data.planId).toBeNull();
        const audit = await auditOf(id);
        expect(audit.filter((event) => event.action === 'user.update').map((event) => event.changedFields)).toEqual([
          ['planId'],
          ['planId'],
        ]);
      });

      it('refuses with 422 a plan that does not exist or is not offered in every venue of the user', async () => {
        const onlyA = await created({ name: 'A only', venueIds: ['venue-a'] });
        const unknown = await users().post(guest({ planId: 'no-such-plan' }));
        expect(unknown.status).toBe(422);
        expect(unknown.body).toEqual({
          success: false,
          message: 'Plan not usable here',
          errors: [{ field: 'planId', message: 'plan no-such-plan does not exist' }],
        });
        const twoVenues = await users().post(guest({ planId: onlyA._id, venueIds: ['venue-a', 'venue-b'] }));
        expect(twoVenues.status).toBe(422);
        expect(twoVenues.body.errors).toEqual([
          { field: 'planId', message: `plan ${onlyA._id} is not offered in venue venue-b` },
        ]);
        const user = (
          await users()
            .post(guest({ planId: onlyA._id }))
            .expect(201)
        ).body.data;
        const widened = await users().put(user._id as string, { venueIds: ['venue-a', 'venue-b'] });
        expect(widened.status).toBe(422);
        expect(widened.body.errors).toEqual([
          { field: 'venueIds', message: `plan ${onlyA._id} is not offered in venue venue-b` },
        ]);
        expect((await users().get(user._id as string)).body.data.venueIds).toEqual(['venue-a']);
        const malformed = await users().post(guest({ planId: 42 }));
        expect(malformed.status).toBe(400);
        expect(malformed.body.errors).toContainEqual({ field: 'planId', message: 'planId must be a string' });
      });

      it('gives a batch and each of its accounts the plan; a plan not offered in the venue is 422', async () => {
        const plan = await created({ name: 'Vouchers', venueIds: ['venue-a'] });
        const batches = (body: object) =>
          testApp.http.post('/api/v1/hotspot-user-batches').set('Authorization', `Bearer ${admin}`).send(body);
        const response = await batches({ venueId: 'venue-a', count: 3, validFor: 3600, planId: plan._id });
        expect(response.status).toBe(201);
        const batch = response.body.data as BatchDetailDto;
        expect(batch.planId).toBe(plan._id);
        const accounts = await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ batchId: batch.id });
        expect(accounts.map((account) => account.planId)).toEqual([plan._id, plan._id, plan._id]);
        const elsewhere = await batches({ venueId: 'venue-b', count: 1, validFor: 3600, planId: plan._id });
        expect(elsewhere.status).toBe(422);
        expect(elsewhere.body.errors).toEqual([
          { field: 'planId', message: `plan ${plan._id} is not offered in venue venue-b` },
        ]);
        expect((await as(admin).delete(plan._id)).body.errors).toEqual([
          { field: 'id', message: 'the plan is in use: 3 users are on it; 1 batch gives it' },
        ]);
      });

      it('hotspot venue set --default-plan: a plan the venue offers, checked, audited; in use until cleared', async () => {
        const cli = (...argv: string[]) => runCli(contextRuntime(testApp.app), ...argv);
        const plan = await created({ name: 'House default', venueIds: ['venue-c'] });
        const set = await cli('venue', 'set', 'venue-c', '--default-plan', plan._id, '--json');
        expect(set.code).toBe(0);
        expect(JSON.parse(set.stdout)).toMatchObject({ id: 'venue-c', defaultPlanId: plan._id });
        const venue = await testApp.dataSource.getRepository(VenueEntity).findOneByOrFail({ id: 'venue-c' });
        expect(venue.defaultPlanId).toBe(plan._id);
        const audit = await testApp.dataSource
          .getRepository(AuditEventEntity)
          .find({ where: { targetId: 'venue-c' }, order: { occurredAt: 'ASC', id: 'ASC' } });
        expect(audit.map((event) => event.action)).toEqual(['venue.create']);

        const notOffered = await cli('venue', 'set', 'venue-a', '--default-plan', plan._id);
        expect(notOffered.code).toBe(2);
        expect(notOffered.stderr).toContain(`defaultPlanId plan ${plan._id} is not offered in venue venue-a`);
        const unknown = await cli('venue', 'set', 'venue-c', '--default-plan', 'no-such-plan');
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain('defaultPlanId plan no-such-plan does not exist');

        expect((await as(admin).delete(plan._id)).body.errors).toEqual([
          { field: 'id', message: 'the plan is in use: it is the default plan of venue venue-c' },
        ]);
        const cleared = await cli('venue', 'set', 'venue-c', '--clear-default-plan', '--json');
        expect(JSON.parse(cleared.stdout)).toMatchObject({ defaultPlanId: null });
        await as(admin).delete(plan._id).expect(200);
      });
    });
  });
}
