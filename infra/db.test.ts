import { describe, expect, it } from '@jest/globals';
import { isDatabaseUnavailable } from './db.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a pool that found no connection in time', new Error('timeout exceeded when trying to connect')],
    [
      'a transaction that could not start (P2028)',
      withCode('Unable to start a transaction in the given time.', 'P2028'),
    ],
    [
      'PostgreSQL shutting down (57P01)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['PostgreSQL starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a refused connection', new Error('connect ECONNREFUSED 127.0.0.1:5432')],
    [
      "a raw query's SQLSTATE inside Prisma's error (P2010)",
      withCode('Raw query failed. Code: `57P01`. Message: `terminating connection`', 'P2010'),
    ],
    [
      "Prisma's driver adapter error for a server that went away",
      Object.assign(new Error('terminating connection due to administrator command'), {
        name: 'DriverAdapterError',
        cause: { kind: 'postgres', code: '57P01', message: 'terminating connection' },
      }),
    ],
    [
      'a closed connection by kind',
      Object.assign(new Error('ConnectionClosed'), { cause: { kind: 'ConnectionClosed' } }),
    ],
    [
      'a client that lost its connection',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    [
      'the same, as the cause of another error',
      new Error('wrapped', { cause: new Error('Connection terminated unexpectedly') }),
    ],
  ])('counts %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    [
      'a raw query that failed on its own (P2010, 22P02)',
      withCode('Raw query failed. Code: `22P02`.', 'P2010'),
    ],
    ['a deadlock', withCode('deadlock detected', '40P01')],
    [
      'a P2028 that is a transaction timing out after it started',
      withCode('Transaction already closed', 'P2028'),
    ],
    ['a value that is not an error', 'Connection terminated unexpectedly'],
    [
      'a driver adapter error for a constraint',
      Object.assign(new Error('Unique constraint failed'), { cause: { kind: 'UniqueConstraintViolation' } }),
    ],
  ])('does not count %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
