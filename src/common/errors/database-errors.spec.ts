import {
  DatabaseBusyError,
  isContention,
  isDatabaseUnavailable,
  isLockConflict,
  isSqliteBusy,
  isUniqueViolation,
  retryAfterSeconds,
} from './database-errors.js';

const withCode = (code: string, message = 'driver error') => Object.assign(new Error(message), { code });
const wrapped = (code: string) => Object.assign(new Error('Query failed'), { driverError: { code } });

describe('isUniqueViolation', () => {
  it.each(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'])(
    'recognises %s, raw or wrapped by TypeORM',
    (code) => {
      expect(isUniqueViolation(withCode(code))).toBe(true);
      expect(isUniqueViolation(wrapped(code))).toBe(true);
    },
  );

  it.each([
    ['a foreign key failure', withCode('SQLITE_CONSTRAINT_FOREIGNKEY')],
    ['a connection failure', withCode('ECONNREFUSED')],
    ['a plain error', new Error('Duplicate entry')],
    ['a non-string code', Object.assign(new Error('x'), { code: 1062 })],
    ['null', null],
    ['a string', 'ER_DUP_ENTRY'],
  ])('is false for %s', (_case, error) => {
    expect(isUniqueViolation(error)).toBe(false);
  });
});

describe('isDatabaseUnavailable', () => {
  it.each(['ECONNREFUSED', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ER_CON_COUNT_ERROR', 'SQLITE_BUSY'])(
    'recognises the code %s, raw or wrapped',
    (code) => {
      expect(isDatabaseUnavailable(withCode(code))).toBe(true);
      expect(isDatabaseUnavailable(wrapped(code))).toBe(true);
    },
  );

  it.each([
    'Pool is closed.',
    "Can't add new command when connection is in closed state",
    'Connection is not established with mysql database',
    'Connection with mysql database is not established. Check connection configuration.',
    'Cannot execute operation because connection is not yet established.',
    'TypeError: The database connection is not open',
  ])('recognises the message %j', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('ER_PARSE_ERROR', 'You have an error in your SQL syntax')],
    ['a unique violation', withCode('ER_DUP_ENTRY')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['undefined', undefined],
    ['null', null],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('contention', () => {
  it.each(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT'])('recognises the lock conflict %s, raw or wrapped', (code) => {
    expect(isLockConflict(withCode(code))).toBe(true);
    expect(isLockConflict(wrapped(code))).toBe(true);
    expect(isContention(wrapped(code))).toBe(true);
    expect(isSqliteBusy(wrapped(code))).toBe(false);
  });

  it.each([1213, 1205])('recognises errno %i without a code', (errno) => {
    expect(isLockConflict(Object.assign(new Error('x'), { errno }))).toBe(true);
    expect(isLockConflict(Object.assign(new Error('x'), { driverError: { errno } }))).toBe(true);
  });

  it.each(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY'])('recognises %s as SQLite busy', (code) => {
    expect(isSqliteBusy(wrapped(code))).toBe(true);
    expect(isContention(wrapped(code))).toBe(true);
    expect(isLockConflict(wrapped(code))).toBe(false);
  });

  it.each([
    ['a duplicate key', wrapped('ER_DUP_ENTRY')],
    ['a duplicate key by errno', Object.assign(new Error('x'), { errno: 1062 })],
    ['a lost connection', withCode('PROTOCOL_CONNECTION_LOST')],
    ['SQLITE_LOCKED (one connection, never another process)', withCode('SQLITE_LOCKED')],
    ['null', null],
  ])('is not contention: %s', (_case, error) => {
    expect(isContention(error)).toBe(false);
  });

  it('counts contention and exhausted retries as unavailable, with a short Retry-After', () => {
    const busy = new DatabaseBusyError('still contended', wrapped('ER_LOCK_DEADLOCK'));
    expect(isDatabaseUnavailable(busy)).toBe(true);
    expect(isDatabaseUnavailable(wrapped('ER_LOCK_DEADLOCK'))).toBe(true);
    expect(retryAfterSeconds(busy)).toBe(1);
    expect(retryAfterSeconds(wrapped('SQLITE_BUSY'))).toBe(1);
    expect(retryAfterSeconds(withCode('ECONNREFUSED'))).toBe(5);
  });
});
