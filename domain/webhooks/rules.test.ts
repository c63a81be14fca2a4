import { describe, expect, it } from '@jest/globals';
import {
  disabledCause,
  endpointHealthStatus,
  nextAttemptAt,
  successRate,
  attemptOutcome,
  excerpt,
  formatWebhookBody,
  isAllowedWebhookUrl,
  MAX_ATTEMPTS,
  resourceIdOf,
  RETRY_SCHEDULE_MS,
  retryDelayMs,
  shouldDisableEndpoint,
  type OutboxPayload,
} from './rules.js';

const payload: OutboxPayload = {
  type: 'organization.updated',
  timestamp: '2026-11-22T08:00:00.000Z',
  data: { id: '6f1a3f3e-2f7c-4b0e-9a8e-3c1d2b4a5f60', name: 'Acme' },
};

describe('retryDelayMs', () => {
  it('follows the Standard Webhooks schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    const hours = (n: number) => n * 3_600_000;
    expect(RETRY_SCHEDULE_MS).toEqual([
      0,
      5_000,
      300_000,
      1_800_000,
      hours(2),
      hours(5),
      hours(10),
      hours(14),
      hours(20),
      hours(24),
    ]);
    expect(Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelayMs(i + 1, 0.5))).toEqual(
      RETRY_SCHEDULE_MS,
    );
  });

  it('jitters each delay by at most ±10 % and never delays the first attempt', () => {
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const base = RETRY_SCHEDULE_MS[attempt - 1]!;
      expect(retryDelayMs(attempt, 0)).toBe(Math.round(base * 0.9));
      expect(retryDelayMs(attempt, 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.1));
      expect(retryDelayMs(attempt, 0.999999)).toBeGreaterThan(base);
    }
    expect(retryDelayMs(1, 0)).toBe(0);
    expect(retryDelayMs(1, 0.99)).toBe(0);
  });

  it('refuses an attempt beyond the schedule', () => {
    expect(() => retryDelayMs(MAX_ATTEMPTS + 1, 0.5)).toThrow(RangeError);
    expect(() => retryDelayMs(0, 0.5)).toThrow(RangeError);
  });
});

describe('attemptOutcome', () => {
  it('delivers on 2xx, stops on 410, retries everything else', () => {
    expect([200, 201, 204, 299].map(attemptOutcome)).toEqual(Array(4).fill('succeeded'));
    expect(attemptOutcome(410)).toBe('gone');
    expect([null, 301, 400, 404, 429, 500, 503].map(attemptOutcome)).toEqual(Array(7).fill('failed'));
  });
});

describe('shouldDisableEndpoint', () => {
  it('disables at 10 events in a row that failed every retry', () => {
    expect(shouldDisableEndpoint(9)).toBe(false);
    expect(shouldDisableEndpoint(10)).toBe(true);
  });
});

describe('isAllowedWebhookUrl', () => {
  it('accepts https anywhere and http only to this machine', () => {
    expect(isAllowedWebhookUrl('https://hooks.example.com/polar')).toBe(true);
    expect(isAllowedWebhookUrl('http://localhost:4000/hook')).toBe(true);
    expect(isAllowedWebhookUrl('http://127.0.0.1:4000/hook')).toBe(true);
    expect(isAllowedWebhookUrl('http://[::1]:4000/hook')).toBe(true);
    expect(isAllowedWebhookUrl('http://hooks.example.com/polar')).toBe(false);
    expect(isAllowedWebhookUrl('http://127.0.0.1.example.com/')).toBe(false);
    expect(isAllowedWebhookUrl('ftp://hooks.example.com/')).toBe(false);
    expect(isAllowedWebhookUrl('not a url')).toBe(false);
  });
});

describe('formatWebhookBody', () => {
  it('sends the outbox payload in the raw format, naming the version its data is in', () => {
    const body = formatWebhookBody('raw', payload, '2026-04');
    expect(JSON.parse(body)).toEqual({ ...payload, api_version: '2026-04' });
    expect(Object.keys(JSON.parse(body) as object)).toEqual(['type', 'timestamp', 'api_version', 'data']);
  });

  it('sends a Discord message with an embed naming the event and resource', () => {
    expect(JSON.parse(formatWebhookBody('discord', payload, '2026-10'))).toEqual({
      username: 'Tollgate',
      embeds: [
        {
          title: 'organization.updated',
          description: 'Acme',
          timestamp: payload.timestamp,
          fields: [{ name: 'ID', value: payload.data.id, inline: true }],
        },
      ],
    });
  });

  it('sends a Slack message with fallback text and blocks', () => {
    const message = JSON.parse(formatWebhookBody('slack', payload, '2026-10')) as {
      text: string;
      blocks: { type: string }[];
    };
    expect(message.text).toBe('organization.updated: Acme');
    expect(message.blocks.map((block) => block.type)).toEqual(['section', 'context']);
    expect(JSON.stringify(message.blocks)).toContain(String(payload.data.id));
  });
});

describe('resourceIdOf', () => {
  it("is the payload's data.id, or the event's own id without one", () => {
    expect(resourceIdOf(payload, 'event-1')).toBe(payload.data.id);
    expect(resourceIdOf({ ...payload, data: {} }, 'event-1')).toBe('event-1');
  });
});

describe('excerpt', () => {
  it('keeps the first 2 KB of an answer', () => {
    expect(excerpt('ok')).toBe('ok');
    expect(excerpt('x'.repeat(5000))).toHaveLength(2048);
  });
});

describe('endpointHealthStatus', () => {
  it('is idle without attempts, and disabled whatever the attempts when the endpoint is off', () => {
    expect(endpointHealthStatus({ enabled: true, attempts: 0, succeeded: 0 })).toBe('idle');
    expect(endpointHealthStatus({ enabled: false, attempts: 10, succeeded: 10 })).toBe('disabled');
  });

  it('is healthy from 95 % of attempts succeeded, failing below half, degraded between', () => {
    expect(endpointHealthStatus({ enabled: true, attempts: 20, succeeded: 19 })).toBe('healthy');
    expect(endpointHealthStatus({ enabled: true, attempts: 20, succeeded: 18 })).toBe('degraded');
    expect(endpointHealthStatus({ enabled: true, attempts: 20, succeeded: 10 })).toBe('degraded');
    expect(endpointHealthStatus({ enabled: true, attempts: 20, succeeded: 9 })).toBe('failing');
  });

  it('has no success rate without attempts', () => {
    expect(successRate(0, 0)).toBeNull();
    expect(successRate(4, 3)).toBe(0.75);
  });
});

describe('disabledCause', () => {
  it('names the stored reason, and a seller switching the endpoint off when none is stored', () => {
    expect(disabledCause(true, null)).toBeNull();
    expect(disabledCause(false, 'gone')).toBe('gone');
    expect(disabledCause(false, 'failing')).toBe('failing');
    expect(disabledCause(false, null)).toBe('manual');
  });
});

describe('nextAttemptAt', () => {
  const at = new Date('2026-11-22T08:00:00.000Z');
  const pending = { status: 'pending' as const, round: 'dispatch', endpointEnabled: true };

  it('follows the retry schedule after a failed attempt', () => {
    expect(nextAttemptAt({ ...pending, lastAttempt: { attempt: 1, succeeded: false, at } })).toEqual(
      new Date(at.getTime() + 5_000),
    );
    expect(nextAttemptAt({ ...pending, lastAttempt: { attempt: 3, succeeded: false, at } })).toEqual(
      new Date(at.getTime() + 30 * 60_000),
    );
  });

  it('has none once the schedule ran out, the round ended, or the last attempt succeeded', () => {
    const failed = { attempt: MAX_ATTEMPTS, succeeded: false, at };
    expect(nextAttemptAt({ ...pending, lastAttempt: failed })).toBeNull();
    expect(
      nextAttemptAt({ ...pending, status: 'failed', lastAttempt: { ...failed, attempt: 2 } }),
    ).toBeNull();
    expect(nextAttemptAt({ ...pending, lastAttempt: { attempt: 1, succeeded: true, at } })).toBeNull();
    expect(nextAttemptAt({ ...pending, lastAttempt: null })).toBeNull();
  });

  it('has none for a first delivery to a disabled endpoint, but keeps a redelivery’s', () => {
    const lastAttempt = { attempt: 1, succeeded: false, at };
    expect(nextAttemptAt({ ...pending, endpointEnabled: false, lastAttempt })).toBeNull();
    expect(
      nextAttemptAt({ ...pending, endpointEnabled: false, round: 'another-round', lastAttempt }),
    ).toEqual(new Date(at.getTime() + 5_000));
  });
});
