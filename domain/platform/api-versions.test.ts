import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import {
  API_VERSIONS,
  inVersions,
  renderedInVersions,
  readApiVersionHeader,
  schemaForVersion,
  unknownVersionDetail,
  versionRangeOf,
} from './api-versions.js';

describe('readApiVersionHeader', () => {
  it('reads each supported version, and no header (or an empty one) as the unversioned API', () => {
    for (const version of API_VERSIONS) expect(readApiVersionHeader(version)).toBe(version);
    expect(readApiVersionHeader(' 2026-10 ')).toBe('2026-10');
    expect(readApiVersionHeader(undefined)).toBeNull();
    expect(readApiVersionHeader('')).toBeNull();
  });

  it('refuses a value that is not one of them, however close', () => {
    for (const value of ['2026-07', '2025-13', '2026-4', '2026-10-01', 'latest', '2026_10']) {
      expect(readApiVersionHeader(value)).toBeUndefined();
    }
    expect(unknownVersionDetail('2026-07')).toBe(
      'Polar-Version "2026-07" is not a version of this API. Send one of 2026-04, 2026-10, 2027-01, or no Polar-Version for the unversioned API.',
    );
  });
});

describe('inVersions', () => {
  it('marks a copy, so the same schema elsewhere keeps every version', () => {
    const uuid = z.uuid();
    const marked = inVersions({ from: '2026-10' }, uuid);
    expect(versionRangeOf(marked)).toEqual({ from: '2026-10' });
    expect(versionRangeOf(uuid)).toBeUndefined();
    expect(versionRangeOf(marked.nullable().optional())).toEqual({ from: '2026-10' });
  });

  it('refuses a range without ends or running backwards', () => {
    expect(() => inVersions({}, z.string())).toThrow('needs a first or a last version');
    expect(() => inVersions({ from: '2027-01', to: '2026-04' }, z.string())).toThrow('cannot start');
  });
});

describe('schemaForVersion', () => {
  const member = z.object({ id: z.uuid(), email: z.string() }).meta({ id: 'ExampleMember' });
  const licenseKey = z
    .object({
      id: z.uuid(),
      key: z.string(),
      member_id: inVersions({ from: '2026-10' }, z.uuid().nullable()),
      member: inVersions({ from: '2026-10' }, member.nullable()),
      order_id: inVersions({ from: '2027-01' }, z.uuid().nullable()),
      legacy_code: inVersions({ to: '2026-04' }, z.string()).optional(),
    })
    .meta({ id: 'ExampleLicenseKey' });
  const row = {
    id: '00000000-0000-4000-8000-000000000001',
    key: 'KEY',
    member_id: null,
    member: null,
    order_id: '00000000-0000-4000-8000-000000000002',
    legacy_code: 'OLD',
  };

  it('serves every field to the unversioned API', () => {
    expect(schemaForVersion(licenseKey, null)).toBe(licenseKey);
    expect(Object.keys(licenseKey.parse(row))).toEqual(Object.keys(row));
  });

  it('leaves out what a version does not have, at both ends of a range', () => {
    const keys = (version: (typeof API_VERSIONS)[number]) =>
      Object.keys(schemaForVersion(licenseKey, version).parse(row));
    expect(keys('2026-04')).toEqual(['id', 'key', 'legacy_code']);
    expect(keys('2026-10')).toEqual(['id', 'key', 'member_id', 'member']);
    expect(keys('2027-01')).toEqual(['id', 'key', 'member_id', 'member', 'order_id']);
  });

  it('reaches fields inside arrays, unions, nullable and paginated wrappers, once per version', () => {
    const page = z.object({
      items: z.array(licenseKey),
      pagination: z.object({ total_count: z.number() }),
    });
    const either = z.union([page, z.object({ nothing: z.literal(true) })]);
    const forApril = schemaForVersion(either.nullable(), '2026-04');
    const parsed = forApril.parse({ items: [row], pagination: { total_count: 1 } }) as {
      items: Record<string, unknown>[];
    };
    expect(Object.keys(parsed.items[0]!)).toEqual(['id', 'key', 'legacy_code']);
    expect(schemaForVersion(page, '2026-04')).toBe(schemaForVersion(page, '2026-04'));
  });

  it('keeps a schema with nothing versioned as it is, and the component id of one that changes', () => {
    expect(schemaForVersion(member, '2026-04')).toBe(member);
    const document = z.toJSONSchema(schemaForVersion(licenseKey, '2026-04')) as {
      $ref: string;
      $defs: Record<string, { properties: Record<string, unknown>; required: string[] }>;
    };
    expect(document.$ref).toBe('#/$defs/ExampleLicenseKey');
    expect(Object.keys(document.$defs.ExampleLicenseKey!.properties)).toEqual(['id', 'key', 'legacy_code']);
    expect(document.$defs.ExampleLicenseKey!.required).toEqual(['id', 'key']);
    expect(z.globalRegistry.get(schemaForVersion(licenseKey, '2026-10'))?.id).toBe('ExampleLicenseKey');
  });

  it('keeps the checks of an object it rebuilds', () => {
    const checked = z
      .object({ low: z.number(), high: z.number(), note: inVersions({ from: '2027-01' }, z.string()) })
      .refine((value) => value.low <= value.high, 'low above high');
    expect(() => schemaForVersion(checked, '2026-04').parse({ low: 2, high: 1 })).toThrow('low above high');
    expect(schemaForVersion(checked, '2026-04').parse({ low: 1, high: 2, note: 'x' })).toEqual({
      low: 1,
      high: 2,
    });
  });
});

describe('renderedInVersions', () => {
  const fixed = z.object({ id: z.string(), amount_type: z.literal('fixed'), price_amount: z.number() });
  const free = renderedInVersions(
    { from: '2026-10' },
    z.object({ id: z.string(), amount_type: z.literal('free') }),
    {
      as: fixed,
      render: (price) => ({ ...price, amount_type: 'fixed' as const, price_amount: 0 }),
    },
  );
  const price = z.discriminatedUnion('amount_type', [free, fixed]);
  const product = z.object({ prices: z.array(price) });
  const freeOne = { id: 'p1', amount_type: 'free' };
  const fixedOne = { id: 'p2', amount_type: 'fixed', price_amount: 500 };

  it('shows the marked shape as it is to the unversioned API and the versions before the range', () => {
    for (const version of [null, '2026-04'] as const) {
      expect(schemaForVersion(product, version).parse({ prices: [freeOne, fixedOne] })).toEqual({
        prices: [freeOne, fixedOne],
      });
    }
  });

  it('renders it as the shape it becomes in the range, however deep, leaving other values alone', () => {
    for (const version of ['2026-10', '2027-01'] as const) {
      expect(schemaForVersion(product, version).parse({ prices: [freeOne, fixedOne] })).toEqual({
        prices: [{ id: 'p1', amount_type: 'fixed', price_amount: 0 }, fixedOne],
      });
      expect(schemaForVersion(price, version).parse(freeOne)).toEqual({
        ...freeOne,
        amount_type: 'fixed',
        price_amount: 0,
      });
    }
  });

  it('leaves the rendered variant out of the union of a version, so its document lists the other once', () => {
    const variants = (version: '2026-04' | '2026-10') =>
      z.toJSONSchema(schemaForVersion(price, version), { io: 'output' }) as {
        oneOf?: unknown[];
        anyOf?: unknown[];
      };
    const count = (schema: { oneOf?: unknown[]; anyOf?: unknown[] }) =>
      (schema.oneOf ?? schema.anyOf ?? []).length;
    expect(count(variants('2026-04'))).toBe(2);
    expect(count(variants('2026-10'))).toBe(1);
    expect(JSON.stringify(variants('2026-10'))).not.toContain('"free"');
  });

  it('refuses a range without ends, as inVersions does', () => {
    expect(() => renderedInVersions({}, z.string(), { as: z.string(), render: (value) => value })).toThrow(
      'needs a first or a last version',
    );
  });
});
