import { describe, expect, it } from '@jest/globals';
import {
  creditTakenBack,
  cycleCredits,
  licenseKeyExpiresAt,
  licenseKeyFor,
  nextGrantStep,
  planGrants,
  type ExistingGrant,
} from './rules.js';
import { displayKeyOf } from '../license-keys/rules.js';

const CUSTOMER = '00000000-0000-4000-8000-000000000001';
const BENEFIT = '00000000-0000-4000-8000-0000000000b1';
const ORDER = '00000000-0000-4000-8000-0000000000a1';
const SUBSCRIPTION = '00000000-0000-4000-8000-0000000000c1';

const row = (overrides: Partial<ExistingGrant>): ExistingGrant => ({
  id: 'grant',
  customerId: CUSTOMER,
  benefitId: BENEFIT,
  orderId: ORDER,
  subscriptionId: null,
  desired: 'granted',
  ...overrides,
});

describe('planGrants', () => {
  it('creates a row per new (customer, benefit, source) and leaves held ones alone', () => {
    const plan = planGrants(
      [
        { customerId: CUSTOMER, benefitId: BENEFIT, source: { kind: 'order', id: ORDER } },
        { customerId: CUSTOMER, benefitId: BENEFIT, source: { kind: 'subscription', id: SUBSCRIPTION } },
      ],
      [row({})],
    );
    expect(plan).toEqual({
      create: [
        { customerId: CUSTOMER, benefitId: BENEFIT, source: { kind: 'subscription', id: SUBSCRIPTION } },
      ],
      desire: [],
    });
  });

  it('revokes rows no source entitles any more, and reuses a revoked row on a re-grant', () => {
    expect(planGrants([], [row({ id: 'a' })])).toEqual({
      create: [],
      desire: [{ id: 'a', desired: 'revoked' }],
    });
    expect(
      planGrants(
        [{ customerId: CUSTOMER, benefitId: BENEFIT, source: { kind: 'order', id: ORDER } }],
        [row({ id: 'a', desired: 'revoked' })],
      ),
    ).toEqual({ create: [], desire: [{ id: 'a', desired: 'granted' }] });
  });

  it('tells an order from a subscription with the same id', () => {
    const plan = planGrants(
      [{ customerId: CUSTOMER, benefitId: BENEFIT, source: { kind: 'subscription', id: ORDER } }],
      [row({ id: 'a' })],
    );
    expect(plan.desire).toEqual([{ id: 'a', desired: 'revoked' }]);
    expect(plan.create).toHaveLength(1);
  });
});

describe('nextGrantStep', () => {
  const state = {
    desired: 'granted',
    grantedAt: null as Date | null,
    revokedAt: null as Date | null,
    cyclesRequested: 0,
    cyclesApplied: 0,
    updateRequested: false,
  };
  const at = new Date('2026-01-01T00:00:00Z');

  it('grants first, then cycles, then updates, and rests when done', () => {
    expect(nextGrantStep(state)).toBe('grant');
    expect(nextGrantStep({ ...state, grantedAt: at, cyclesRequested: 1, updateRequested: true })).toBe(
      'cycle',
    );
    expect(nextGrantStep({ ...state, grantedAt: at, updateRequested: true })).toBe('update');
    expect(nextGrantStep({ ...state, grantedAt: at })).toBeNull();
  });

  it('grants a revoked row again, and revokes once, granted or not', () => {
    expect(nextGrantStep({ ...state, grantedAt: at, revokedAt: at })).toBe('grant');
    expect(nextGrantStep({ ...state, desired: 'revoked', grantedAt: at })).toBe('revoke');
    expect(nextGrantStep({ ...state, desired: 'revoked' })).toBe('revoke');
    expect(nextGrantStep({ ...state, desired: 'revoked', revokedAt: at, cyclesRequested: 2 })).toBeNull();
  });
});

describe('license keys', () => {
  it('are uppercase UUIDs after an uppercase prefix, shown by their last six characters', () => {
    const key = licenseKeyFor('tg', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d');
    expect(key).toBe('TG-A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D');
    expect(licenseKeyFor(null, 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d')).toBe(
      'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D',
    );
    expect(displayKeyOf(key)).toBe('****-3B4C5D');
  });

  it('expire after their ttl in calendar days, months or years (UTC), clamped to the month', () => {
    const from = new Date('2026-01-31T10:00:00.000Z');
    expect(licenseKeyExpiresAt(from, null)).toBeNull();
    expect(licenseKeyExpiresAt(from, { ttl: 1, timeframe: 'month' })?.toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(licenseKeyExpiresAt(from, { ttl: 2, timeframe: 'day' })?.toISOString()).toBe(
      '2026-02-02T10:00:00.000Z',
    );
    expect(
      licenseKeyExpiresAt(new Date('2024-02-29T00:00:00Z'), { ttl: 1, timeframe: 'year' })?.toISOString(),
    ).toBe('2025-02-28T00:00:00.000Z');
  });
});

describe('meter credits', () => {
  it('a cycle carries what is left (rollover only, never more than the last credit), then credits the units', () => {
    expect(cycleCredits({ units: 100, rollover: false, balance: 40, lastCredited: 100 })).toEqual([
      { units: 100, rollover: false },
    ]);
    expect(cycleCredits({ units: 100, rollover: true, balance: 40.7, lastCredited: 100 })).toEqual([
      { units: 40, rollover: true },
      { units: 100, rollover: false },
    ]);
    expect(cycleCredits({ units: 100, rollover: true, balance: 500, lastCredited: 140 })).toEqual([
      { units: 140, rollover: true },
      { units: 100, rollover: false },
    ]);
    expect(cycleCredits({ units: 100, rollover: true, balance: -5, lastCredited: 100 })).toEqual([
      { units: 100, rollover: false },
    ]);
  });

  it('a revoke takes back what is left of the last credit, never below zero', () => {
    expect(creditTakenBack({ balance: 997, lastCredited: 1000 })).toBe(997);
    expect(creditTakenBack({ balance: 2000, lastCredited: 1000 })).toBe(1000);
    expect(creditTakenBack({ balance: -3, lastCredited: 1000 })).toBe(0);
  });
});
