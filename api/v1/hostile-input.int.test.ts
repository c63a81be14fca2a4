// Hardening issue item 3: text PostgreSQL cannot store (NUL, unpaired surrogates), names too long
// for an index row and broken percent-encoding reached the database or the router and answered
// 500. Every operation of the OpenAPI document gets each of them in each of its inputs: none may
// answer 5xx, and a text the rule refuses is a 422 naming the field. Path parameters name objects
// that exist wherever one can be made, so that an input the rule missed would reach the database.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  createAccessToken,
  createCustomField,
  createMeter,
  createOrganization,
  createUploadedFile,
  createWebhookEndpoint,
} from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

type Schema = Record<string, unknown>;
type Operation = {
  operationId: string;
  security?: unknown[];
  parameters: { name: string; in: 'path' | 'query'; schema: Schema }[];
  /** JSON, or a form for the OAuth server's token endpoints (sent as JSON here, which they also read). */
  requestBody?: { content: Record<string, { schema: Schema }> };
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
type Loc = (string | number)[];
type Answer = { status: number; body: unknown };

/** Each way a text has broken the API, as it travels in a JSON body, for a field's schema. */
const HOSTILE_TEXT: Record<string, (field: Schema) => string> = {
  nul: () => 'a\u0000b',
  escape: () => 'a\u001bb',
  'unpaired surrogate': () => 'sur\ud800rogate',
  // One past the field's documented maximum; past what a btree index row holds (about 2,700
  // bytes) where a field documents none.
  'too long': (field) => 'x'.repeat(typeof field.maxLength === 'number' ? field.maxLength + 1 : 3000),
};

/** The same in a URL; an unpaired surrogate has no UTF-8 form, so it cannot travel there. */
const HOSTILE_URL_TEXT = {
  nul: 'a%00b',
  escape: 'a%1Bb',
  '3,000 characters': 'x'.repeat(3000),
} as const;
const BROKEN_PERCENT_ENCODING = '%E0%A4%A';

const MAX_DEPTH = 6;

/** A body that puts `text` at one string of the schema (every other field left out), and where. */
type Placement = { loc: Loc; body: unknown };

function placements(
  document: Document,
  schema: Schema,
  text: (field: Schema) => string,
  depth = 0,
): Placement[] {
  if (depth > MAX_DEPTH) return [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return placements(document, document.components.schemas[name]!, text, depth + 1);
  }
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return variants.flatMap((variant) => placements(document, variant, text, depth + 1));
  if (schema.type === 'string' && !('const' in schema) && !schema.enum)
    return [{ loc: [], body: text(schema) }];
  if (schema.type === 'array') {
    if (Array.isArray(schema.prefixItems)) {
      const items = schema.prefixItems as Schema[];
      return items.flatMap((item, index) =>
        placements(document, item, text, depth + 1).map(({ loc, body }) => ({
          loc: [index, ...loc],
          body: items.map((other, at) => (at === index ? body : sample(other))),
        })),
      );
    }
    if (schema.items && typeof schema.items === 'object') {
      return placements(document, schema.items as Schema, text, depth + 1).map(({ loc, body }) => ({
        loc: [0, ...loc],
        body: [body],
      }));
    }
    return [];
  }
  if (schema.type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    // Discriminators (`type`, `amount_type`, `func`) pick the variant whose fields are checked; a
    // required flag (`pause_at_period_end`) does too where variants are matched by shape.
    const required = new Set((schema.required ?? []) as string[]);
    const base = Object.fromEntries(
      Object.entries(properties)
        .filter(
          ([name, property]) =>
            'const' in property ||
            (required.has(name) && (Array.isArray(property.enum) || property.type === 'boolean')),
        )
        .map(([name, property]) => [name, sample(property)]),
    );
    const found = Object.entries(properties).flatMap(([name, property]) =>
      placements(document, property, text, depth + 1).map(({ loc, body }) => ({
        loc: [name, ...loc],
        body: { ...base, [name]: body },
      })),
    );
    const values = schema.additionalProperties;
    if (values && typeof values === 'object') {
      // A record (metadata): the text as a key, and as a value.
      const key = text(
        schema.propertyNames && typeof schema.propertyNames === 'object'
          ? (schema.propertyNames as Schema)
          : {},
      );
      found.push({ loc: [], body: { ...base, [key]: sample(values as Schema) } });
      for (const { loc, body } of placements(document, values as Schema, text, depth + 1)) {
        found.push({ loc: ['key', ...loc], body: { ...base, key: body } });
      }
    }
    return found;
  }
  return [];
}

/** Some value of the schema's type, for the positions around the one under test. */
function sample(schema: Schema): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return sample(variants[0]!);
  return schema.type === 'number' || schema.type === 'integer' ? 1 : schema.type === 'boolean' ? true : 'x';
}

const isPrefix = (shorter: Loc, longer: Loc) => shorter.every((part, index) => longer[index] === part);

/**
 * Whether a 422 names the field at `loc`: an issue there, inside it (a record's key), or at the
 * union that holds it (zod reports a union whose every variant failed at the union) — never only
 * at the body as a whole.
 */
/** The OAuth server's operations answer RFC 6749's `invalid_request`, naming the parameter first. */
const isOAuthRefusalOf = (answer: Answer, loc: Loc) => {
  const body = answer.body as { error?: unknown; error_description?: unknown } | null;
  return (
    answer.status === 400 &&
    body?.error === 'invalid_request' &&
    typeof body.error_description === 'string' &&
    body.error_description.startsWith(`${loc.slice(1).join('.')}:`)
  );
};

const namesField = (answer: Answer, loc: Loc) =>
  isOAuthRefusalOf(answer, loc) ||
  (answer.status === 422 &&
    Array.isArray((answer.body as { detail?: unknown } | null)?.detail) &&
    (answer.body as { detail: { loc?: unknown }[] }).detail.some(({ loc: issueLoc }) => {
      if (!Array.isArray(issueLoc) || issueLoc.length < 2) return false;
      return isPrefix(issueLoc as Loc, loc) || isPrefix(loc, issueLoc as Loc);
    }));

describe('hostile text in every operation of the OpenAPI document', () => {
  const env = useTestStack({ withWorker: false });
  let document: Document;
  let token: string;
  let customerToken: string;
  const operations: { method: string; path: string; operation: Operation }[] = [];
  /** Path parameter values of existing objects, by the path's resource and parameter name. */
  const existing = new Map<string, string>();
  let linkUrl: string;

  async function create(path: string, body: unknown): Promise<Record<string, string>> {
    const response = await fetch(`${env.stack.baseUrl}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Record<string, string>;
  }

  beforeAll(async () => {
    document = (await (await fetch(`${env.stack.baseUrl}/v1/openapi.json`)).json()) as Document;
    for (const [path, byMethod] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(byMethod))
        operations.push({ method, path, operation });
    }
    const { db } = env.database;
    const organization = await createOrganization(db);
    token = await createAccessToken(db, organization.id);
    const product = await create('/products/', {
      name: 'Seed product',
      prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'usd' }],
    });
    const customer = await create('/customers/', { email: 'seed@example.com', external_id: 'seed-external' });
    // The customer portal's operations are called as this customer.
    customerToken = (await create('/customer-sessions/', { customer_id: customer.id })).token!;
    const checkout = await create('/checkouts/', { product_id: product.id });
    const discount = await create('/discounts/', {
      name: 'Seed discount',
      type: 'percentage',
      basis_points: 1000,
      duration: 'once',
    });
    const benefit = await create('/benefits/', {
      type: 'custom',
      description: 'Seed benefit',
      properties: {},
    });
    const link = await create('/checkout-links/', { product_id: product.id });
    linkUrl = link.url!;
    const seeded: Record<string, Record<string, string>> = {
      organizations: { id: organization.id },
      products: { id: product.id! },
      customers: { id: customer.id!, external_id: 'seed-external' },
      checkouts: { id: checkout.id!, client_secret: checkout.client_secret! },
      discounts: { id: discount.id! },
      benefits: { id: benefit.id! },
      'checkout-links': { id: link.id! },
      meters: { id: (await createMeter(db, organization.id)).id },
      'custom-fields': { id: (await createCustomField(db, organization.id)).id },
      files: { id: (await createUploadedFile(db, organization.id)).id },
      webhooks: { id: (await createWebhookEndpoint(db, organization.id)).id },
    };
    for (const [resource, values] of Object.entries(seeded)) {
      for (const [name, value] of Object.entries(values)) existing.set(`${resource} ${name}`, value);
    }
  });

  /** The path with an existing object's value for each parameter, else a plausible one. */
  function urlOf(path: string, operation: Operation, replace: Record<string, string> = {}): string {
    const resource = path.split('/')[2] ?? '';
    let url = path;
    for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'path')) {
      const value =
        replace[parameter.name] ??
        existing.get(`${resource} ${parameter.name}`) ??
        (parameter.schema.format === 'uuid' ? randomUUID() : 'test-value');
      url = url.replace(`{${parameter.name}}`, value);
    }
    return `${env.stack.baseUrl}${url}`;
  }

  async function call(method: string, url: string, body?: unknown): Promise<Answer> {
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers: {
        authorization: `Bearer ${url.includes('/v1/customer-portal/') ? customerToken : token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the failure report.
    }
    return { status: response.status, body: parsed };
  }

  const describeFailure = (what: string, answer: Answer) =>
    `${what}: ${answer.status} ${String(JSON.stringify(answer.body)).slice(0, 200)}`;

  it('refuses hostile text anywhere in a body with a 422 naming the field', async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const { method, path, operation } of operations) {
      const schema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
      if (!schema) continue;
      for (const [kind, text] of Object.entries(HOSTILE_TEXT)) {
        for (const { loc, body } of placements(document, schema, text)) {
          tried += 1;
          const answer = await call(method, urlOf(path, operation), body);
          if (!namesField(answer, ['body', ...loc])) {
            failures.push(describeFailure(`${method} ${path} body.${loc.join('.')} (${kind})`, answer));
          }
        }
      }
    }
    expect(tried).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 600_000);

  it('refuses hostile text in every query parameter and path parameter, never with a 5xx', async () => {
    const failures: string[] = [];
    for (const { method, path, operation } of operations) {
      for (const parameter of operation.parameters) {
        for (const [kind, text] of Object.entries(HOSTILE_URL_TEXT)) {
          const url =
            parameter.in === 'path'
              ? urlOf(path, operation, { [parameter.name]: text })
              : parameter.schema.type === 'object'
                ? `${urlOf(path, operation)}?${parameter.name}[key]=${text}&${parameter.name}[${text}]=x`
                : `${urlOf(path, operation)}?${parameter.name}=${text}`;
          const answer = await call(method, url, operation.requestBody ? {} : undefined);
          // A query parameter the operation reads is refused at its name; every text is.
          if (!namesField(answer, [parameter.in, parameter.name])) {
            failures.push(
              describeFailure(`${method} ${path} ${parameter.in}.${parameter.name} (${kind})`, answer),
            );
          }
        }
        const broken =
          parameter.in === 'path'
            ? urlOf(path, operation, { [parameter.name]: BROKEN_PERCENT_ENCODING })
            : `${urlOf(path, operation)}?${parameter.name}=${BROKEN_PERCENT_ENCODING}`;
        const answer = await call(method, broken, operation.requestBody ? {} : undefined);
        const expected = parameter.in === 'path' ? answer.status === 400 : answer.status < 500;
        if (!expected)
          failures.push(
            describeFailure(`${method} ${path} ${parameter.in}.${parameter.name} (broken %)`, answer),
          );
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers a path with broken percent-encoding with 400 BadRequest', async () => {
    const response = await fetch(`${env.stack.baseUrl}/v1/customers/external/${BROKEN_PERCENT_ENCODING}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'BadRequest',
      detail: 'The URL is not correctly percent-encoded.',
    });
  });

  // A link is shared widely and must never break (api/checkout-links.ts): a prefill value that
  // breaks the text rule is left out, as any value that does not fit.
  it('leaves hostile prefills out of a checkout link visit instead of answering 500', async () => {
    const query = ['customer_name', 'reference_id', 'utm_source', 'discount_code']
      .map((name) => `${name}=a%00b`)
      .join('&');
    const response = await fetch(`${linkUrl}?${query}&utm_medium=sur%ED%A0%80rogate`, {
      redirect: 'manual',
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(303);
    const secret = new URL(response.headers.get('location')!, env.stack.baseUrl).pathname.split('/').at(-1)!;
    const checkout = await env.database.db.checkout.findUniqueOrThrow({ where: { clientSecret: secret } });
    expect(checkout.customerName).toBeNull();
    // Percent-encoded bytes that are no UTF-8 (a surrogate's) stay as written: no unpaired
    // surrogate can arrive through a URL.
    expect(checkout.metadata).toEqual({ utm_medium: 'sur%ED%A0%80rogate' });
  });

  it('refuses a 900 KB name with a 422 saying the limit', async () => {
    const response = await fetch(`${env.stack.baseUrl}/v1/products/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(900_000), prices: [{ amount_type: 'free' }] }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [{ loc: ['body', 'name'], msg: 'Must be at most 256 characters.', type: 'too_big' }],
    });
  });
});
