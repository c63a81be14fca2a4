import { describe, expect, it } from '@jest/globals';
import {
  NO_PENDING_UPDATE,
  pendingUpdateAtRenewal,
  pendingUpdateView,
  scheduledUpdate,
} from './pending-updates.js';

const PRO = '00000000-0000-4000-8000-0000000000b1';
const PREMIUM = '00000000-0000-4000-8000-0000000000b2';
const TEAM = '00000000-0000-4000-8000-0000000000b3';
const UPDATE = '00000000-0000-4000-8000-0000000000c1';
const OTHER_ID = '00000000-0000-4000-8000-0000000000c2';

const periodEnd = new Date('2026-04-01T00:00:00Z');
const asked = new Date('2026-03-10T12:00:00Z');
const later = new Date('2026-03-20T08:30:00Z');

const nothingPending = {
  productId: PRO,
  seats: null as number | null,
  currentPeriodIndex: 2,
  currentPeriodEnd: periodEnd,
  cancelAtPeriodEnd: false,
  endedAt: null,
  ...NO_PENDING_UPDATE,
};
const premiumPending = {
  ...nothingPending,
  pendingUpdateId: UPDATE,
  pendingProductId: PREMIUM,
  pendingUpdateCreatedAt: asked,
  pendingUpdateModifiedAt: null,
};

describe('pendingUpdateView', () => {
  it('is null when nothing is pending, and once the plan has ended', () => {
    expect(pendingUpdateView(nothingPending)).toBeNull();
    expect(pendingUpdateView({ ...premiumPending, endedAt: periodEnd })).toBeNull();
  });

  it("applies at the current period's end, with its seats (none here) and no units", () => {
    expect(pendingUpdateView(premiumPending)).toEqual({
      created_at: '2026-03-10T12:00:00.000Z',
      modified_at: null,
      id: UPDATE,
      applies_at: '2026-04-01T00:00:00.000Z',
      product_id: PREMIUM,
      seats: null,
      units: null,
    });
    // A period that moved (a test clock, an interval change) moves the date with it.
    const moved = new Date('2026-05-01T00:00:00Z');
    expect(pendingUpdateView({ ...premiumPending, currentPeriodEnd: moved })?.applies_at).toBe(
      '2026-05-01T00:00:00.000Z',
    );
  });
});

describe('scheduledUpdate', () => {
  it('creates a pending update with a new id when none is pending', () => {
    expect(scheduledUpdate(nothingPending, { productId: PREMIUM }, asked, UPDATE)).toEqual({
      pendingUpdateId: UPDATE,
      pendingProductId: PREMIUM,
      pendingSeats: null,
      pendingUpdateCreatedAt: asked,
      pendingUpdateModifiedAt: null,
    });
  });

  it('moves the pending update to another product, keeping its id and creation', () => {
    expect(scheduledUpdate(premiumPending, { productId: TEAM }, later, OTHER_ID)).toEqual({
      pendingUpdateId: UPDATE,
      pendingProductId: TEAM,
      pendingSeats: null,
      pendingUpdateCreatedAt: asked,
      pendingUpdateModifiedAt: later,
    });
  });

  it('writes nothing when the same product is asked for again', () => {
    expect(scheduledUpdate(premiumPending, { productId: PREMIUM }, later, OTHER_ID)).toBeNull();
    expect(scheduledUpdate(nothingPending, { productId: PRO }, later, OTHER_ID)).toBeNull();
  });

  it('cancels the pending update when the current product is asked for', () => {
    expect(scheduledUpdate(premiumPending, { productId: PRO }, later, OTHER_ID)).toEqual(NO_PENDING_UPDATE);
  });

  it('schedules seats on the plan as it will be; a plan change asked for alone replaces them', () => {
    const team = { ...nothingPending, seats: 5 };
    // Seats alone: on the plan's own product.
    const fewer = scheduledUpdate(team, { seats: 3 }, asked, UPDATE);
    expect(fewer).toEqual({
      pendingUpdateId: UPDATE,
      pendingProductId: PRO,
      pendingSeats: 3,
      pendingUpdateCreatedAt: asked,
      pendingUpdateModifiedAt: null,
    });
    // Then a plan change on its own: it replaces the seats too (a change to another product
    // decides its own seats), and back to the current product cancels everything.
    const withFewer = { ...team, ...fewer! };
    expect(scheduledUpdate(withFewer, { productId: TEAM }, later, OTHER_ID)).toMatchObject({
      pendingUpdateId: UPDATE,
      pendingProductId: TEAM,
      pendingSeats: null,
      pendingUpdateModifiedAt: later,
    });
    expect(scheduledUpdate(withFewer, { productId: PRO }, later, OTHER_ID)).toEqual(NO_PENDING_UPDATE);
    // Seats after a plan change was scheduled: on the product it moves to.
    expect(scheduledUpdate({ ...premiumPending, seats: 5 }, { seats: 8 }, later, OTHER_ID)).toMatchObject({
      pendingProductId: PREMIUM,
      pendingSeats: 8,
    });
    // The seats it has, on its own product: nothing left to change.
    expect(scheduledUpdate(withFewer, { seats: 5 }, later, OTHER_ID)).toEqual(NO_PENDING_UPDATE);
    expect(scheduledUpdate(team, { seats: 5 }, later, OTHER_ID)).toBeNull();
    expect(scheduledUpdate(withFewer, { seats: 3 }, later, OTHER_ID)).toBeNull();
  });
});

describe('pendingUpdateAtRenewal', () => {
  const atEnd = periodEnd.getTime();

  it("applies at the renewal into the next period, once the period's end is reached", () => {
    expect(pendingUpdateAtRenewal(premiumPending, 3, atEnd)).toBe('apply');
    expect(pendingUpdateAtRenewal(premiumPending, 3, atEnd + 5_000)).toBe('apply');
  });

  it('does nothing before the end, for another period, or with nothing pending', () => {
    expect(pendingUpdateAtRenewal(premiumPending, 3, atEnd - 1)).toBe('none');
    expect(pendingUpdateAtRenewal(premiumPending, 4, atEnd)).toBe('none');
    expect(pendingUpdateAtRenewal(premiumPending, 2, atEnd)).toBe('none');
    expect(pendingUpdateAtRenewal(nothingPending, 3, atEnd)).toBe('none');
  });

  it('drops it when the plan ends at that renewal instead', () => {
    expect(pendingUpdateAtRenewal({ ...premiumPending, cancelAtPeriodEnd: true }, 3, atEnd)).toBe('drop');
  });
});
