import type { QueryRunner } from 'typeorm';
import { NasService } from '../src/nas/nas.service.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { UnauthJobWorker } from '../src/unauth-jobs/unauth-job-worker.service.js';
import { api } from './support/api-client.js';
import { givenUser } from './support/factories.js';
import { NasSimulator } from './support/nas-simulator.js';
import { radiusCall, rlmBody } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * After a NAS acknowledged a Disconnect, the worker closes the session locally (its terminate
 * cause), then records the attempt. When that local close fails, the NAS's answer is still recorded
 * and the job done: nothing is sent again. The close is made to fail by a row lock another transaction
 * holds past the database deadline, which only MySQL can show (SQLite takes one writer at a time, so
 * the attempt's record would wait too).
 */
const mysqlOnly = process.env.TEST_MYSQL_URL ? describe : describe.skip;

const NAS_SECRET = 'nas-shared-secret-local-close';

mysqlOnly('a Disconnect acknowledged while the session row is locked [mysql]', () => {
  let testApp: TestApp;
  let nas: NasSimulator;
  let holder: QueryRunner;

  beforeAll(async () => {
    nas = await NasSimulator.start(NAS_SECRET);
    testApp = await startTestApp('mysql', {
      UNAUTH_DISPATCHER: 'radius',
      RADIUS_DM_TIMEOUT_MS: '200',
      RADIUS_DM_RETRIES: '0',
      WORKER_ENABLED: 'false',
      DB_TIMEOUT_MS: '500',
      LOG_LEVEL: 'fatal',
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await nas?.close();
  });

  afterEach(async () => {
    if (holder?.isTransactionActive) await holder.rollbackTransaction();
    await holder?.release();
  });

  it('the attempt is recorded and the job done; the session is not closed locally', async () => {
    await testApp.app.get(NasService).add({
      venueId: 'venue-a',
      name: 'nas-local-close',
      ipAddress: nas.address,
      secret: NAS_SECRET,
      coaPort: nas.port,
      vendor: 'mikrotik',
    });
    const radiusToken = await testApp.createToken({ permissions: ['radius'] });
    const user = await givenUser(testApp);
    await radiusCall(
      testApp,
      radiusToken,
      'accounting',
      { name: 'nas-local-close', ip: nas.address },
      rlmBody({
        'Acct-Status-Type': 'Start',
        'User-Name': user.username!,
        'Acct-Session-Id': 'acct-local-close',
        'Acct-Unique-Session-Id': 'unique-local-close',
        'Calling-Station-Id': 'AA-BB-CC-00-00-01',
        'NAS-IP-Address': '192.0.2.10',
      }),
    ).expect(204);
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    const [session] = await testApp.dataSource.getRepository(SessionEntity).findBy({ userId: user._id });

    holder = testApp.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query('SELECT id FROM sessions WHERE id = ? FOR UPDATE', [session.id]);
    expect(await testApp.app.get(UnauthJobWorker).processBatch()).toBe(1);
    await holder.rollbackTransaction();

    expect(nas.verified).toHaveLength(1);
    const [job] = await testApp.dataSource.getRepository(UnauthJobEntity).findBy({ userId: user._id });
    expect(job).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    expect(Object.values(job.deliveries!.radius.sessions!)).toEqual([expect.objectContaining({ result: 'acked' })]);
    // Blocked, so already ended by the service; only the NAS's confirmation is missing locally.
    const [after] = await testApp.dataSource.getRepository(SessionEntity).findBy({ userId: user._id });
    expect(after).toMatchObject({ status: 'expired', terminateCause: null });
  });
});
