import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createRecordingSink } from '../../test/stripe-factories.js';
import { DELIVERY_LEASE_MS, ingestProcessorEvent, redeliverProcessorEvents } from './events.js';
import type { ProcessorEvent } from './processor.js';

type PaymentSucceeded = Extract<ProcessorEvent, { type: 'payment.succeeded' }>;

function paymentSucceeded(overrides: Partial<PaymentSucceeded> = {}): PaymentSucceeded {
  return {
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    type: 'payment.succeeded',
    occurredAt: '2026-11-22T10:00:00.000Z',
    checkoutId: randomUUID(),
    paymentId: 'pi_123',
    paymentMethod: { brand: 'visa', last4: '4242' },
    ...overrides,
  };
}

describe('processor events', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  beforeEach(async () => {
    await database.reset();
  });

  const row = (eventId: string) =>
    database.db.processorEvent.findUniqueOrThrow({
      where: { processor_eventId: { processor: 'stripe', eventId } },
    });

  describe('ingestProcessorEvent', () => {
    it('records a new event and delivers it once', async () => {
      const sink = createRecordingSink();
      const event = paymentSucceeded();
      await expect(ingestProcessorEvent(database.db, 'stripe', event, sink)).resolves.toBe('delivered');
      expect(sink.events).toEqual([event]);
      const stored = await row(event.id);
      expect(stored).toMatchObject({ type: 'payment.succeeded', payload: event, deliveryLeaseUntil: null });
      expect(stored.deliveredAt).toBeInstanceOf(Date);
      expect(stored.occurredAt.toISOString()).toBe(event.occurredAt);
    });

    it('absorbs a duplicate: the second arrival is not delivered', async () => {
      const sink = createRecordingSink();
      const event = paymentSucceeded();
      await ingestProcessorEvent(database.db, 'stripe', event, sink);
      await expect(ingestProcessorEvent(database.db, 'stripe', event, sink)).resolves.toBe('duplicate');
      expect(sink.events).toHaveLength(1);
      expect(await database.db.processorEvent.count()).toBe(1);
    });

    it('keeps processors apart: the same event id from another processor is another event', async () => {
      const sink = createRecordingSink();
      const event = paymentSucceeded();
      await ingestProcessorEvent(database.db, 'stripe', event, sink);
      await expect(ingestProcessorEvent(database.db, 'sandbox', event, sink)).resolves.toBe('delivered');
      expect(sink.events).toHaveLength(2);
    });

    it('delivers concurrent arrivals of one event exactly once', async () => {
      const sink = createRecordingSink();
      const event = paymentSucceeded();
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () => ingestProcessorEvent(database.db, 'stripe', event, sink)),
      );
      expect(outcomes.filter((outcome) => outcome === 'delivered')).toHaveLength(1);
      expect(sink.events).toHaveLength(1);
    });

    it('loses no event when the sink fails: it stays undelivered and the next arrival delivers it', async () => {
      const sink = createRecordingSink();
      const event = paymentSucceeded();
      sink.failNext();
      await expect(ingestProcessorEvent(database.db, 'stripe', event, sink)).rejects.toThrow(
        /sink unavailable/,
      );
      expect(await row(event.id)).toMatchObject({ deliveredAt: null, deliveryLeaseUntil: null });

      await expect(ingestProcessorEvent(database.db, 'stripe', event, sink)).resolves.toBe('delivered');
      expect(sink.events).toEqual([event]);
      expect((await row(event.id)).deliveredAt).toBeInstanceOf(Date);
    });

    it('delivers a re-sent event as first recorded', async () => {
      const sink = createRecordingSink();
      const event = paymentSucceeded();
      sink.failNext();
      await ingestProcessorEvent(database.db, 'stripe', event, sink).catch(() => undefined);
      await ingestProcessorEvent(database.db, 'stripe', { ...event, paymentId: 'pi_other' }, sink);
      expect(sink.events).toEqual([event]);
    });

    it('leaves an event alone while another delivery holds its lease', async () => {
      const sink = createRecordingSink();
      const event = paymentSucceeded();
      sink.failNext();
      await ingestProcessorEvent(database.db, 'stripe', event, sink).catch(() => undefined);
      await database.db.processorEvent.update({
        where: { processor_eventId: { processor: 'stripe', eventId: event.id } },
        data: { deliveryLeaseUntil: new Date(Date.now() + DELIVERY_LEASE_MS) },
      });
      await expect(ingestProcessorEvent(database.db, 'stripe', event, sink)).resolves.toBe('duplicate');
      expect(sink.events).toEqual([]);
    });
  });

  describe('redeliverProcessorEvents', () => {
    it('delivers undelivered events oldest first, skips delivered and recent ones, and keeps failures', async () => {
      const sink = createRecordingSink();
      const [older, newer, delivered, recent, stuck] = Array.from({ length: 5 }, () => paymentSucceeded());
      for (const event of [older!, newer!, recent!]) {
        sink.failNext();
        await ingestProcessorEvent(database.db, 'stripe', event, sink).catch(() => undefined);
      }
      await ingestProcessorEvent(database.db, 'stripe', delivered!, sink);
      sink.failNext();
      await ingestProcessorEvent(database.db, 'stripe', stuck!, sink).catch(() => undefined);
      // A process died delivering `stuck`: its lease ran out a while ago.
      await database.db.processorEvent.update({
        where: { processor_eventId: { processor: 'stripe', eventId: stuck!.id } },
        data: { deliveryLeaseUntil: new Date(Date.now() - 1000) },
      });
      const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
      for (const [event, receivedAt] of [
        [older!, minutesAgo(10)],
        [newer!, minutesAgo(5)],
        [stuck!, minutesAgo(3)],
      ] as const) {
        await database.db.processorEvent.update({
          where: { processor_eventId: { processor: 'stripe', eventId: event.id } },
          data: { receivedAt },
        });
      }
      sink.events.length = 0;

      await expect(redeliverProcessorEvents(database.db, sink, { minAgeMs: 60_000 })).resolves.toEqual({
        delivered: 3,
        failed: 0,
      });
      expect(sink.events.map((event) => event.id)).toEqual([older!.id, newer!.id, stuck!.id]);
      expect((await row(recent!.id)).deliveredAt).toBeNull();

      sink.failNext();
      await expect(redeliverProcessorEvents(database.db, sink, { minAgeMs: 0 })).resolves.toEqual({
        delivered: 0,
        failed: 1,
      });
      await expect(redeliverProcessorEvents(database.db, sink, { minAgeMs: 0 })).resolves.toEqual({
        delivered: 1,
        failed: 0,
      });
      expect(await database.db.processorEvent.count({ where: { deliveredAt: null } })).toBe(0);
    });
  });
});
