import { beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { z } from 'zod';
import type { Db } from '../infra/db.js';
import { signUpUser } from './auth-client.js';
import type { TestDatabase } from './database.js';
import { isOAuthScopeResource } from '../domain/oauth2/rules.js';
import { addMember, createAccessToken, createOAuthAccessToken, createOrganization } from './factories.js';
import type { TestStack } from './stack.js';

// The tenancy scenario: what every payments-API operation answers to callers of the wrong
// organization, with too few scopes, with a read-only role, or with no credentials at all. One
// table row per operation (api/v1/tenancy.int.test.ts) instead of a copy of these tests per resource.

type Method = 'get' | 'post' | 'patch' | 'delete';

/** What a resource's seed gets: one organization, and a token (and its SDK) that may do anything there. */
export type TenancyOrganization = { id: string; token: string; polar: Polar; db: Db };

/** How the API refuses a create aimed at another organization: its `organization_id`, or one of its objects. */
export type ForeignRefusal =
  | {
      status: 422;
      loc: readonly (string | number)[];
      /** Further fields refused in the same answer (each foreign id in the body, as Polar lists them). */
      alsoAt?: readonly (readonly (string | number)[])[];
    }
  | { status: 404; error: 'ResourceNotFound' };

export type TenancyOperation<Seed> = {
  operationId: string;
  method: Method;
  /** As /v1/openapi.json spells it, without `/v1`: `/products/{id}`. */
  path: string;
  /** The values of the path's placeholders for a seed; `{ id: seed.id }` unless given. */
  params?: (seed: Seed) => Record<string, string>;
  /**
   * A valid body, made from the seed of the organization it is for. Bodies are validated before
   * permissions are checked, so an invalid one would answer 422 where the scenario expects 403 or 404.
   */
  body?: (seed: Seed, organizationId: string) => Record<string, unknown>;
  /** Query parameters every call carries (those the operation requires), fixed or of the seed. */
  query?: Record<string, string> | ((seed: Seed) => Record<string, string>);
  /** What a caller who may call it gets, when that is not 200. */
  allowedStatus?: number;
  /** For a list: the id under which the seed appears among its items; the seed's id unless given. */
  listed?: (seed: Seed) => string;
  /** For a list whose items have no id (event names): the field `listed` names them by. */
  listedBy?: string;
  /**
   * For a CSV export (a list without ids): the text by which the seed's line is recognised; the
   * export names no other organization's seed, and one filtered to theirs is its header alone.
   */
  exported?: (seed: Seed) => string;
  /**
   * For a GET of a collection that answers a report instead of a list (metrics): how many of the
   * seeded organization's objects the answer counts, or null for an answer about no organization
   * (limits). Our callers' answer counts our seed alone; one filtered to the other organization's
   * id counts nothing.
   */
  report?: (answer: unknown) => number | null;
  /** For a list: a read-only member sees none of the organization's objects (access tokens are for managers). */
  isHiddenFromMembers?: boolean;
  /** For a create: how a body made for another organization is refused. */
  foreign?: ForeignRefusal;
  /** A signed-in read-only member may call it, as anyone may create an organization of their own. */
  canMembersCall?: boolean;
  /** A read for owners and admins only (the processor's configuration problem): members get 403. */
  isForManagers?: boolean;
};

export type TenancyResource<Seed extends { id: string }> = {
  name: string;
  /**
   * The scope of its tokens (`<scope>:read` or `:write`, api/http/operations.ts `assertScope`), or
   * null for operations only a signed-in user may call, which refuse every access token.
   */
  scope: string | null;
  /** Creates one object of the resource in the organization, and whatever its operations need besides. */
  seed(organization: TenancyOrganization): Promise<Seed>;
  /** The object as stored, compared before and after a refused change. */
  stored(db: Db, seed: Seed): Promise<unknown>;
  /** How many objects the organization has, compared before and after a refused create. */
  count?(db: Db, organizationId: string): Promise<number>;
  operations: readonly TenancyOperation<Seed>[];
};

/** What the coverage check needs of a table row. */
export type CoveredOperation = {
  resource: string;
  operationId: string;
  method: Method;
  path: string;
  hasForeignRefusal: boolean;
};

export type TenancyScenario = {
  name: string;
  operations: readonly CoveredOperation[];
  /** Declares the resource's describe block; `env` is read once its beforeAll has run. */
  define(env: TenancyEnv): void;
};

export type TenancyEnv = { database: TestDatabase; stack: TestStack };

type Credentials = { token: string } | { cookie: string } | null;
type Answer = { status: number; body: unknown };
type Kind = 'list' | 'create' | 'read' | 'write';

/** As `assertScope` counts them: GET reads, anything else writes; a path without a placeholder is the collection. */
function kindOf(operation: { method: string; path: string }): Kind {
  const onObject = operation.path.includes('{');
  if (operation.method === 'get') return onObject ? 'read' : 'list';
  return onObject ? 'write' : 'create';
}

const listSchema = z.object({
  items: z.array(z.record(z.string(), z.unknown())),
  pagination: z.object({ total_count: z.number() }),
});

/** A JSON schema's own fields; a discriminated union (files) documents one variant each under anyOf or oneOf. */
const objectSchema = z.object({ properties: z.record(z.string(), z.unknown()).optional() });
const bodySchema = objectSchema.extend({
  anyOf: z.array(objectSchema).optional(),
  oneOf: z.array(objectSchema).optional(),
});

const openApiSchema = z.object({
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({
        operationId: z.string(),
        security: z.array(z.unknown()).optional(),
        parameters: z.array(z.object({ name: z.string(), in: z.string() })).optional(),
        // JSON, or a form (the OAuth server's token endpoints).
        requestBody: z.object({ content: z.record(z.string(), z.object({ schema: bodySchema })) }).optional(),
      }),
    ),
  ),
});

export type DocumentedOperation = {
  operationId: string;
  method: string;
  /** Without `/v1`, as the table spells it. */
  path: string;
  isPublic: boolean;
  /** A customer-portal operation: called with a customer session, tested in customer-portal.int.test.ts. */
  isCustomer: boolean;
  /**
   * An operation of the OAuth server that takes a credential of its own (a user's session for their
   * own apps, a registration token, an OAuth token): apps belong to users, not organizations, and
   * their refusals (another user's app, another client's code or token) are in api/v1/oauth2.int.test.ts.
   */
  isOAuth: boolean;
  queryParameters: string[];
  bodyProperties: string[];
};

/** Every operation of `/v1/openapi.json`, the document written from the same records as the routes. */
export async function documentedOperations(baseUrl: string): Promise<DocumentedOperation[]> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`);
  const document = openApiSchema.parse(await response.json());
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const schema = Object.values(operation.requestBody?.content ?? {})[0]?.schema ?? {};
      const variants = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
      const bodyProperties = variants.flatMap((variant) => Object.keys(variant.properties ?? {}));
      return {
        operationId: operation.operationId,
        method,
        path: path.replace(/^\/v1/, ''),
        // Operations anyone may call (the buyer's checkout calls, this document) say so with `security: []`.
        isPublic: operation.security?.length === 0,
        isCustomer: JSON.stringify(operation.security ?? []).includes('customer_session'),
        isOAuth: /"(oauth2_\w+|dashboard_session)"/.test(JSON.stringify(operation.security ?? [])),
        queryParameters: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        bodyProperties: [...new Set(bodyProperties)],
      };
    }),
  );
}

/**
 * What the table misses: documented operations of a caller it has no row for (a new operation must
 * join the scenario), rows the document does not have (renamed or removed), rows given twice, and
 * creates that take an `organization_id` without saying how a foreign one is refused.
 */
export function tenancyCoverage(documented: DocumentedOperation[], scenarios: readonly TenancyScenario[]) {
  const rows = scenarios.flatMap((scenario) => scenario.operations);
  const label = (operation: { operationId: string; method: string; path: string }) =>
    `${operation.operationId} (${operation.method.toUpperCase()} /v1${operation.path})`;
  const same = (a: { operationId: string; method: string; path: string }) => (b: typeof a) =>
    a.operationId === b.operationId && a.method === b.method && a.path === b.path;
  const ofCallers = documented.filter(
    (operation) => !operation.isPublic && !operation.isCustomer && !operation.isOAuth,
  );
  return {
    uncovered: ofCallers.filter((operation) => !rows.some(same(operation))).map(label),
    unknown: rows.filter((row) => !ofCallers.some(same(row))).map((row) => `${row.resource}: ${label(row)}`),
    repeated: rows.filter((row, index) => rows.findIndex(same(row)) !== index).map(label),
    foreignUnchecked: ofCallers
      .filter((operation) => kindOf(operation) === 'create')
      .filter((operation) => operation.bodyProperties.includes('organization_id'))
      .filter((operation) => !rows.some((row) => same(operation)(row) && row.hasForeignRefusal))
      .map(label),
  };
}

async function send(
  baseUrl: string,
  operation: { method: Method; path: string },
  options: {
    credentials: Credentials;
    params: Record<string, string>;
    query?: Record<string, string>;
    body?: Record<string, unknown>;
  },
): Promise<Answer> {
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = options.params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${operation.path}`);
    return encodeURIComponent(value);
  });
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  const headers: Record<string, string> = {};
  if (options.credentials && 'token' in options.credentials) {
    headers.authorization = `Bearer ${options.credentials.token}`;
  }
  if (options.credentials && 'cookie' in options.credentials) {
    // As the dashboard's own requests: a signed-in user's changes come from a page of this origin.
    headers.cookie = options.credentials.cookie;
    headers.origin = baseUrl;
  }
  if (options.body) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}/v1${path}${query}`, {
    method: operation.method.toUpperCase(),
    headers,
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  if (response.headers.get('content-type')?.startsWith('text/csv'))
    return { status: response.status, body: text };
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** The callers of "our" organization, and "their" organization whose objects ours must never reach. */
type World<Seed> = {
  baseUrl: string;
  db: Db;
  ours: {
    organization: TenancyOrganization;
    seed: Seed;
    ownerCookie: string;
    memberCookie: string;
    readToken: string;
    otherScopeToken: string;
    /** OAuth apps' tokens with every scope: for our organization, and as the owner and the member. */
    oauth: { organization: string; owner: string; member: string; read: string; otherScope: string };
  };
  theirs: { organization: TenancyOrganization; seed: Seed };
  documented: DocumentedOperation[];
};

async function seededOrganization<Seed>(
  env: TenancyEnv,
  resource: { seed(organization: TenancyOrganization): Promise<Seed> },
  ownerId: string | null,
) {
  const { db } = env.database;
  const { id } = await createOrganization(db);
  const token = await createAccessToken(db, id, { createdById: ownerId });
  const organization = {
    id,
    token,
    polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }),
    db,
  };
  return { organization, seed: await resource.seed(organization) };
}

async function buildWorld<Seed extends { id: string }>(
  env: TenancyEnv,
  resource: TenancyResource<Seed>,
): Promise<World<Seed>> {
  const { db } = env.database;
  const { baseUrl } = env.stack;
  const owner = await signUpUser(baseUrl);
  const member = await signUpUser(baseUrl);
  // A token acts for the user who made it where that matters (organizations:create).
  const ours = await seededOrganization(env, resource, owner.user.id);
  await addMember(db, ours.organization.id, owner.user.id, 'owner');
  await addMember(db, ours.organization.id, member.user.id, 'member');
  const scope = resource.scope ?? 'organizations';
  const otherScope = scope === 'meters' ? 'products' : 'meters';
  const scoped = (scopes: string[]) =>
    createAccessToken(db, ours.organization.id, { createdById: owner.user.id, scopes });
  const oauthFor = (organizationId: string | undefined, scopes?: string[]) =>
    createOAuthAccessToken(db, { userId: owner.user.id, organizationId, scopes });
  return {
    baseUrl,
    db,
    ours: {
      ...ours,
      ownerCookie: owner.cookieHeader(),
      memberCookie: member.cookieHeader(),
      readToken: await scoped([`${scope}:read`]),
      otherScopeToken: await scoped([`${otherScope}:read`, `${otherScope}:write`]),
      oauth: {
        organization: await oauthFor(ours.organization.id),
        owner: await oauthFor(undefined),
        member: await createOAuthAccessToken(db, { userId: member.user.id }),
        read: await oauthFor(ours.organization.id, [`${scope}:read`]),
        otherScope: await oauthFor(ours.organization.id, [`${otherScope}:read`, `${otherScope}:write`]),
      },
    },
    theirs: await seededOrganization(env, resource, null),
    documented: await documentedOperations(baseUrl),
  };
}

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const UNAUTHORIZED = { error: 'Unauthorized', detail: 'Authentication is required.' };
const notPermitted = (detail: unknown = expect.any(String)) => ({ error: 'NotPermitted', detail });
const NOT_FOUND = { error: 'ResourceNotFound', detail: expect.any(String) };

/** The resource's rows, for the coverage check, and its describe block. */
export function tenancyScenario<Seed extends { id: string }>(
  resource: TenancyResource<Seed>,
): TenancyScenario {
  return {
    name: resource.name,
    operations: resource.operations.map((operation) => ({
      resource: resource.name,
      operationId: operation.operationId,
      method: operation.method,
      path: operation.path,
      hasForeignRefusal: operation.foreign !== undefined,
    })),
    define: (env) => defineScenario(env, resource),
  };
}

function defineScenario<Seed extends { id: string }>(env: TenancyEnv, resource: TenancyResource<Seed>) {
  describe(`${resource.name}: tenancy`, () => {
    let world: World<Seed>;
    beforeAll(async () => {
      world = await buildWorld(env, resource);
    });

    /** Whether OAuth apps may call the resource at all: Polar has scopes for it. */
    const forOAuthApps = resource.scope !== null && isOAuthScopeResource(resource.scope);

    for (const operation of resource.operations) {
      const kind = kindOf(operation);
      const title = `${operation.operationId} (${operation.method.toUpperCase()} /v1${operation.path})`;
      const params = (seed: Seed) => operation.params?.(seed) ?? { id: seed.id };
      const queryOf = (seed: Seed) =>
        typeof operation.query === 'function' ? operation.query(seed) : operation.query;
      const allowed = operation.allowedStatus ?? 200;
      const call = (
        credentials: Credentials,
        seed: Seed,
        organizationId: string,
        query?: Record<string, string>,
      ) =>
        send(world.baseUrl, operation, {
          credentials,
          params: params(seed),
          query: { ...queryOf(seed), ...query },
          body: operation.body?.(seed, organizationId),
        });
      /** Calls as our callers do, on our own seed. */
      const callOurs = (credentials: Credentials) =>
        call(credentials, world.ours.seed, world.ours.organization.id);
      /** Calls with our credentials on their seed (or, for a create, with a body made for them). */
      const callTheirs = (credentials: Credentials, query?: Record<string, string>) =>
        call(credentials, world.theirs.seed, world.theirs.organization.id, query);
      /**
       * Our callers, none of whom may reach another organization: a token (where tokens may call),
       * a signed-in owner, and a signed-in read-only member (naming another organization is the
       * same mistake for them: a 404 or 422, never the 403 of their role).
       */
      const ourCallers = (): { credentials: Credentials; isMember: boolean }[] => [
        ...(resource.scope === null
          ? []
          : [{ credentials: { token: world.ours.organization.token }, isMember: false }]),
        { credentials: { cookie: world.ours.ownerCookie }, isMember: false },
        { credentials: { cookie: world.ours.memberCookie }, isMember: true },
        // An OAuth app acts for the organization it was granted, or as its user with their role.
        ...(forOAuthApps
          ? [
              { credentials: { token: world.ours.oauth.organization }, isMember: false },
              { credentials: { token: world.ours.oauth.owner }, isMember: false },
              { credentials: { token: world.ours.oauth.member }, isMember: true },
            ]
          : []),
      ];

      /** Runs `work` and checks that it changed nothing it could have: the seed for a write, the count for a create. */
      const changingNothing = async (seed: Seed, work: () => Promise<void>) => {
        if (kind === 'write') {
          const before = await resource.stored(world.db, seed);
          await work();
          expect(await resource.stored(world.db, seed)).toEqual(before);
        } else if (kind === 'create') {
          const count = resource.count;
          if (!count) throw new Error(`${resource.name} has a create operation but no count`);
          const counts = () =>
            Promise.all(
              [world.ours.organization.id, world.theirs.organization.id].map((id) => count(world.db, id)),
            );
          const before = await counts();
          await work();
          expect(await counts()).toEqual(before);
        } else {
          await work();
        }
      };

      describe(title, () => {
        if (kind === 'create' && !operation.body) throw new Error(`${operation.operationId} needs a body`);

        it('answers 401 without credentials', async () => {
          await changingNothing(world.ours.seed, async () => {
            expect(await callOurs(null)).toEqual({ status: 401, body: UNAUTHORIZED });
          });
        });

        const report = operation.report;
        if (kind === 'list' && report) {
          it("reports on the caller's objects and never another organization's", async () => {
            const filters = world.documented
              .find((documented) => documented.operationId === operation.operationId)
              ?.queryParameters.includes('organization_id');
            for (const { credentials } of ourCallers()) {
              const own = await callOurs(credentials);
              expect(own.status).toBe(200);
              const counted = report(own.body);
              if (counted === null) continue;
              expect(counted).toBe(1);
              if (filters) {
                const theirs = await callTheirs(credentials, {
                  organization_id: world.theirs.organization.id,
                });
                expect(theirs.status).toBe(200);
                expect(report(theirs.body)).toBe(0);
              }
            }
          });
        }

        if (kind === 'list' && !report) {
          it("lists the caller's objects and never another organization's", async () => {
            const filters = world.documented
              .find((documented) => documented.operationId === operation.operationId)
              ?.queryParameters.includes('organization_id');
            const listed = operation.listed ?? ((seed: Seed) => seed.id);
            const exported = operation.exported;
            for (const { credentials, isMember } of ourCallers()) {
              const own = await callOurs(credentials);
              expect(own.status).toBe(200);
              if (exported) {
                const csv = z.string().parse(own.body);
                expect(csv).toContain(exported(world.ours.seed));
                expect(csv).not.toContain(exported(world.theirs.seed));
                if (filters) {
                  const theirs = await callTheirs(credentials, {
                    organization_id: world.theirs.organization.id,
                  });
                  expect(theirs.status).toBe(200);
                  expect(z.string().parse(theirs.body).trim().split('\r\n')).toHaveLength(1);
                }
                continue;
              }
              const ids = listSchema.parse(own.body).items.map((item) => item[operation.listedBy ?? 'id']);
              if (isMember && operation.isHiddenFromMembers) {
                expect(ids).not.toContain(listed(world.ours.seed));
              } else {
                expect(ids).toContain(listed(world.ours.seed));
              }
              expect(ids).not.toContain(listed(world.theirs.seed));
              if (filters) {
                const theirs = await callTheirs(credentials, {
                  organization_id: world.theirs.organization.id,
                });
                expect(theirs.status).toBe(200);
                expect(listSchema.parse(theirs.body)).toMatchObject({
                  items: [],
                  pagination: { total_count: 0 },
                });
              }
            }
          });
        }

        if (kind === 'read' || kind === 'write') {
          const changes = kind === 'write' ? ', and changes nothing' : '';
          it(`answers 404 for another organization's object exactly as for a missing one${changes}`, async () => {
            // Every placeholder (an id, an external id) names nothing at all.
            const missing = Object.fromEntries(
              Object.keys(params(world.theirs.seed)).map((name) => [name, MISSING_ID]),
            );
            await changingNothing(world.theirs.seed, async () => {
              for (const { credentials } of ourCallers()) {
                const foreign = await callTheirs(credentials);
                expect(foreign).toEqual({ status: 404, body: NOT_FOUND });
                // The same words too: a different message would confirm that the object exists.
                const absent = await send(world.baseUrl, operation, {
                  credentials,
                  params: missing,
                  query: queryOf(world.theirs.seed),
                  body: operation.body?.(world.theirs.seed, world.theirs.organization.id),
                });
                expect(absent).toEqual(foreign);
              }
            });
          });
        }

        const foreign = operation.foreign;
        if (kind === 'create' && foreign) {
          const answer =
            foreign.status === 422
              ? {
                  status: 422,
                  // The message depends on the caller (a token's own organization, a user's memberships).
                  body: {
                    detail: [foreign.loc, ...(foreign.alsoAt ?? [])].map((loc) => ({
                      loc,
                      msg: expect.any(String),
                      type: 'value_error',
                    })),
                  },
                }
              : { status: 404, body: NOT_FOUND };
          it(`answers ${foreign.status} to a body made for another organization, and creates nothing`, async () => {
            await changingNothing(world.ours.seed, async () => {
              for (const { credentials } of ourCallers()) {
                expect(await callTheirs(credentials)).toEqual(answer);
              }
            });
          });
        }

        const scope = resource.scope;
        if (scope === null) {
          it('answers 403 to an access token: only a signed-in user may call it', async () => {
            await changingNothing(world.ours.seed, async () => {
              expect(await callOurs({ token: world.ours.organization.token })).toEqual({
                status: 403,
                body: notPermitted(),
              });
            });
          });
        } else if (kind === 'list' || kind === 'read') {
          it(`answers ${allowed} to a token with only ${scope}:read`, async () => {
            expect((await callOurs({ token: world.ours.readToken })).status).toBe(allowed);
          });
          it(`answers 403 to a token without ${scope} scopes`, async () => {
            expect(await callOurs({ token: world.ours.otherScopeToken })).toEqual({
              status: 403,
              body: notPermitted(`The access token lacks the ${scope}:write scope.`),
            });
          });
        } else {
          it(`answers 403 to a token with only ${scope}:read, or without ${scope} scopes, and changes nothing`, async () => {
            await changingNothing(world.ours.seed, async () => {
              for (const token of [world.ours.readToken, world.ours.otherScopeToken]) {
                expect(await callOurs({ token })).toEqual({
                  status: 403,
                  body: notPermitted(`The access token lacks the ${scope}:write scope.`),
                });
              }
            });
          });
        }

        if (!forOAuthApps) {
          // An operation for signed-in users only refuses an app granted an organization (no user
          // behind it) in its own words, as it does every token; an app acting as its user may call
          // it with the user's role, as Polar allows.
          it('answers 403 to an OAuth app, whatever its scopes, and changes nothing', async () => {
            const refusal =
              scope === null
                ? { tokens: [world.ours.oauth.organization], detail: expect.any(String) }
                : {
                    tokens: [world.ours.oauth.organization, world.ours.oauth.owner],
                    detail: 'This operation is not available to OAuth apps.',
                  };
            await changingNothing(world.ours.seed, async () => {
              for (const token of refusal.tokens) {
                expect(await callOurs({ token })).toEqual({
                  status: 403,
                  body: notPermitted(refusal.detail),
                });
              }
            });
          });
        } else if (kind === 'list' || kind === 'read') {
          it(`answers ${allowed} to an OAuth app with only ${scope}:read, 403 to one without ${scope} scopes`, async () => {
            expect((await callOurs({ token: world.ours.oauth.read })).status).toBe(allowed);
            expect(await callOurs({ token: world.ours.oauth.otherScope })).toEqual({
              status: 403,
              body: notPermitted(`The OAuth token lacks the ${scope}:write scope.`),
            });
          });
        } else {
          it(`answers 403 to an OAuth app with only ${scope}:read, or without ${scope} scopes, and changes nothing`, async () => {
            await changingNothing(world.ours.seed, async () => {
              for (const token of [world.ours.oauth.read, world.ours.oauth.otherScope]) {
                expect(await callOurs({ token })).toEqual({
                  status: 403,
                  body: notPermitted(`The OAuth token lacks the ${scope}:write scope.`),
                });
              }
            });
          });
        }

        /** A read-only member signed in, and an OAuth app acting as them. */
        const members = (): Credentials[] => [
          { cookie: world.ours.memberCookie },
          ...(forOAuthApps ? [{ token: world.ours.oauth.member }] : []),
        ];
        if (operation.isForManagers) {
          it('answers 403 to a read-only member, signed in or through an OAuth app', async () => {
            for (const credentials of members()) {
              expect(await callOurs(credentials)).toEqual({ status: 403, body: notPermitted() });
            }
          });
        } else if (kind === 'list' || kind === 'read') {
          it(`answers ${allowed} to a read-only member, signed in or through an OAuth app`, async () => {
            for (const credentials of members()) expect((await callOurs(credentials)).status).toBe(allowed);
          });
        } else if (!operation.canMembersCall) {
          it('answers 403 to a read-only member, signed in or through an OAuth app, and changes nothing', async () => {
            await changingNothing(world.ours.seed, async () => {
              for (const credentials of members()) {
                expect(await callOurs(credentials)).toEqual({ status: 403, body: notPermitted() });
              }
            });
          });
        }
      });
    }
  });
}
