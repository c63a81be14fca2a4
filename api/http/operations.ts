import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Caller } from '../../domain/access/rules.js';
import { ACCESS_TOKEN_SCOPES } from '../../domain/access-tokens/schemas.js';
import { schemaForVersion, type RequestedApiVersion } from '../../domain/platform/api-versions.js';
import { AppError, ERRORS, InvalidInputError, type ErrorName } from '../../domain/platform/errors.js';
import { OAuthError, isOAuthScopeResource } from '../../domain/oauth2/rules.js';
import type { CustomerCaller } from '../../domain/customer-sessions/rules.js';
import { apiVersionOf } from './api-version.js';
import { callerOf, customerOf } from './authenticate.js';
import { parseBody, parsePath, parseQuery } from './validation.js';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

const SECURITY_SCHEMES = {
  access_token: {
    type: 'http',
    scheme: 'bearer',
    description: "Organization access token, or an OAuth app's access token (docs/oauth2.md)",
  },
  customer_session: {
    type: 'http',
    scheme: 'bearer',
    description: 'Customer session token (customerSessions.create), for the customer portal',
  },
  dashboard_session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'better-auth.session_token',
    description: "The dashboard's signed-in session (Better Auth)",
  },
  oauth2_registration_token: {
    type: 'http',
    scheme: 'bearer',
    description: 'The registration access token an OAuth client got when it was registered (RFC 7592)',
  },
  oauth2_access_token: {
    type: 'http',
    scheme: 'bearer',
    description: "An OAuth app's access token (POST /v1/oauth2/token)",
  },
} as const;
export type SecurityScheme = keyof typeof SECURITY_SCHEMES;

/**
 * One payments-API operation: its wire contract (zod schemas) and where it lives. The same record
 * registers the Express route and writes the OpenAPI document, so the two cannot drift apart.
 */
export type OperationSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> = {
  method: Method;
  /** OpenAPI-style path under /v1, as Polar spells it: `/products/`, `/products/{id}`. */
  path: string;
  /** The Polar SDK's operation name, e.g. `products:get`. */
  operationId: string;
  summary: string;
  tag: string;
  /** The scope resource (`<resource>:read|write`) when it is not the tag. */
  scope?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Absent for answers without a body (204). */
  response?: z.ZodType;
  /**
   * A body that is not JSON (a CSV export): the handler writes it to `res` itself, and the
   * document describes `response` (a string) under this media type.
   */
  mediaType?: 'text/csv';
  status?: 200 | 201 | 202 | 204;
  /** Named errors the operation may answer, documented beside 401 and 422. */
  errors?: readonly ErrorName[];
  /** Not a Polar operation: our extension, said in the document as `x-tollgate`. */
  extension?: string;
  /** Set by `addPublic`: operations anyone may call, such as the OpenAPI document itself. */
  public?: boolean;
  /**
   * For a public operation that checks a credential of its own (the OAuth server's): the security
   * schemes of the document, any one of which it takes.
   */
  security?: readonly SecurityScheme[];
  /** A body sent as a form (RFC 6749's endpoints) rather than JSON. */
  requestMediaType?: 'application/x-www-form-urlencoded';
  /** Invalid input is RFC 6749's `invalid_request` (400), not a validation list. */
  oauthErrors?: boolean;
  /** Statuses answered with an RFC 6749 error body `{ error, error_description }`. */
  oauthStatuses?: readonly (400 | 401 | 403)[];
  /** Set by `addForCustomer`: the customer portal's operations, called with a customer session. */
  customer?: boolean;
};

export type OperationInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  caller: Caller;
  req: Request;
  res: Response;
};

const KNOWN_SCOPES = new Set<string>(ACCESS_TOKEN_SCOPES);

/**
 * A token created with scopes may only do what they name: `<resource>:read` for reads (or
 * `:write`, which implies it), `<resource>:write` for changes. A token without scopes acts fully
 * for its organization. An OAuth app's token is always bounded by its scopes, and an operation
 * whose resource Polar has no scope for is not for OAuth apps at all.
 */
export function assertScope(caller: Caller, resource: string, method: Method): void {
  const oauth = caller.oauth;
  if (oauth) {
    if (!isOAuthScopeResource(resource)) {
      throw new AppError('NotPermitted', 'This operation is not available to OAuth apps.');
    }
    const write = `${resource}:write`;
    const allowed = method === 'get' ? [`${resource}:read`, write] : [write];
    if (!allowed.some((scope) => oauth.scopes.includes(scope))) {
      throw new AppError('NotPermitted', `The OAuth token lacks the ${allowed.at(-1)} scope.`);
    }
    return;
  }
  if (caller.kind !== 'organization_access_token' || caller.scopes.length === 0) return;
  if (!KNOWN_SCOPES.has(`${resource}:read`)) return;
  const write = `${resource}:write`;
  const allowed = method === 'get' ? [`${resource}:read`, write] : [write];
  if (!allowed.some((scope) => caller.scopes.includes(scope))) {
    throw new AppError('NotPermitted', `The access token lacks the ${allowed.at(-1)} scope.`);
  }
}

/** RFC 6749 §5.2: a request with a missing, repeated or malformed parameter is `invalid_request`. */
function asOAuthRequest<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InvalidInputError) {
      const issue = error.issues[0];
      const where = issue ? issue.loc.slice(1).join('.') : '';
      throw new OAuthError('invalid_request', `${where ? `${where}: ` : ''}${issue?.msg ?? error.message}`);
    }
    if (error instanceof AppError && error.errorName === 'UnsupportedMediaType') {
      throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
    }
    throw error;
  }
}

const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The input of an operation anyone may call: no caller (the checkout's client secret is the key). */
export type PublicOperationInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = Omit<
  OperationInput<P, Q, B>,
  'caller'
>;

export type CustomerOperationInput<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
> = PublicOperationInput<P, Q, B> & { customer: CustomerCaller };

/** Registers operations on the /v1 router and remembers them for the OpenAPI document. */
export class OperationRegistry {
  readonly operations: OperationSpec[] = [];
  /** The methods served at each path (Express syntax), which a 405 lists in `Allow`. */
  private readonly methodsAt = new Map<string, Set<string>>();
  /**
   * The routes of each first path segment (`/meters`) live in a router of their own mounted at it,
   * so a request is matched against its resource's dozen routes, not all of them one after the
   * other (Express tries a router's layers in order: ~300 here). A middleware the caller adds to
   * the router between registrations ends this set: operations registered after it must sit
   * behind it (authentication comes after the public operations).
   */
  private segmentRouters = new Map<string, Router>();
  private layersSeen = 0;

  constructor(private readonly router: Router) {}

  private routerFor(expressPath: string): { router: Router; path: string } {
    const match = /^\/([^/:]+)(\/.*)$/.exec(expressPath);
    if (!match) return { router: this.router, path: expressPath };
    const layers = () => (this.router as unknown as { stack: unknown[] }).stack.length;
    if (layers() !== this.layersSeen) this.segmentRouters = new Map();
    const segment = match[1]!;
    let segmentRouter = this.segmentRouters.get(segment);
    if (!segmentRouter) {
      segmentRouter = Router();
      this.segmentRouters.set(segment, segmentRouter);
      this.router.use(`/${segment}`, segmentRouter);
    }
    this.layersSeen = layers();
    return { router: segmentRouter, path: match[2]! };
  }

  /**
   * A method no operation serves at an existing path is a 405 with `Allow` (RFC 9110 §15.5.6), as
   * Polar answers, not a 404; OPTIONS is answered with the list. Installed before the path's first
   * route and read at request time, so methods registered later pass through it to their routes.
   */
  private serveMethod(path: string, method: Method): void {
    let methods = this.methodsAt.get(path);
    if (!methods) {
      const served = new Set<string>();
      methods = served;
      this.methodsAt.set(path, served);
      const route = this.routerFor(path);
      route.router.all(route.path, (req, res, next) => {
        if (served.has(req.method)) return next();
        const allow = [...served, 'OPTIONS'].join(', ');
        if (req.method === 'OPTIONS') {
          res.set('Allow', allow).status(204).end();
          return;
        }
        throw new AppError('MethodNotAllowed', `${req.method} is not allowed here; use ${allow}.`, {
          Allow: allow,
        });
      });
    }
    methods.add(method.toUpperCase());
    // Express answers HEAD with the GET route.
    if (method === 'get') methods.add('HEAD');
  }

  /** An operation of a caller (token or session), checked against the token's scopes. */
  add<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
    spec: OperationSpec<P, Q, B>,
    handler: (input: OperationInput<P, Q, B>) => Promise<unknown>,
  ): void {
    this.register(spec, (input, res) => {
      const caller = callerOf(res);
      assertScope(caller, spec.scope ?? spec.tag, spec.method);
      return handler({ ...input, caller });
    });
  }

  /**
   * A customer-portal operation: the caller is a customer signed in with a customer session
   * (`authenticateCustomer` in front of it); an organization's token or a dashboard session is not.
   */
  addForCustomer<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
    spec: Omit<OperationSpec<P, Q, B>, 'public' | 'customer'>,
    handler: (input: CustomerOperationInput<P, Q, B>) => Promise<unknown>,
  ): void {
    this.register({ ...spec, customer: true }, (input, res) =>
      handler({ ...input, customer: customerOf(res) }),
    );
  }

  /** An operation without a caller (documented with no security requirement). */
  addPublic<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
    spec: Omit<OperationSpec<P, Q, B>, 'public'>,
    handler: (input: PublicOperationInput<P, Q, B>) => Promise<unknown>,
  ): void {
    this.register({ ...spec, public: true }, handler);
  }

  private register<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
    spec: OperationSpec<P, Q, B>,
    handler: (input: PublicOperationInput<P, Q, B>, res: Response) => Promise<unknown>,
  ): void {
    this.operations.push(spec as unknown as OperationSpec);
    this.serveMethod(toExpressPath(spec.path), spec.method);
    const route = this.routerFor(toExpressPath(spec.path));
    route.router[spec.method](route.path, async (req, res) => {
      // The metrics' `operation` label (api/http/metrics.ts): the operation, not its path with ids.
      res.locals['operationId'] = spec.operationId;
      // Who calls comes before what they sent, as for the organizations' operations (401 first).
      if (spec.customer) customerOf(res);
      const parse = () => ({
        params: spec.params ? parsePath(spec.params, req) : {},
        query: spec.query ? parseQuery(spec.query, req) : {},
        body: spec.body ? parseBody(spec.body, req) : undefined,
      });
      const { params, query, body } = spec.oauthErrors ? asOAuthRequest(parse) : parse();
      const result = await handler(
        {
          params: params as z.output<P>,
          query: query as z.output<Q>,
          body: body as z.output<B>,
          req,
          res,
        },
        res,
      );
      const status = spec.status ?? (spec.method === 'post' ? 201 : 200);
      if (spec.mediaType) return;
      if (status === 204 || result === undefined) res.status(status).end();
      // The declared schema decides what goes out: a field a view adds by mistake never leaks,
      // in the shape of the version the caller asked for.
      else {
        const response = spec.response && schemaForVersion(spec.response, apiVersionOf(res));
        res.status(status).json(response ? response.parse(result) : result);
      }
    });
  }
}

type JsonSchema = Record<string, unknown>;

const LOCAL_DEFINITION = /^#\/\$defs\/(.+)$/;

/**
 * zod writes each schema on its own, with the schemas it refers to (recursive ones: meter filters,
 * JSON values) under its own `$defs` as `#/$defs/<name>`. Inside an OpenAPI document such a
 * reference resolves against the document's root, where nothing is, so the definitions move to
 * `components/schemas` and the references with them. Definitions that are the same are kept once.
 */
class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly nameOf = new Map<string, string>();

  adopt(schema: JsonSchema): JsonSchema {
    const { $defs: definitions, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
    if (!definitions) return schema;
    const renamed = new Map<string, string>();
    for (const [name, definition] of Object.entries(definitions)) {
      // The definition's own name is left out of its fingerprint, so that one zod names
      // `__schema0` here and `__schema1` there is still kept once.
      const fingerprint = JSON.stringify(definition).replaceAll(`"#/$defs/${name}"`, '"#self"');
      let component = this.nameOf.get(fingerprint);
      if (!component) {
        component = /^__schema\d+$/.test(name)
          ? `Schema_${createHash('sha256').update(fingerprint).digest('hex').slice(0, 10)}`
          : name;
        while (component in this.schemas) component = `${component}_`;
        this.nameOf.set(fingerprint, component);
        this.schemas[component] = {};
      }
      renamed.set(name, component);
    }
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, entry]) => {
          const local = key === '$ref' && typeof entry === 'string' ? LOCAL_DEFINITION.exec(entry) : null;
          const target = local ? renamed.get(local[1]!) : undefined;
          return [key, target ? `#/components/schemas/${target}` : rewrite(entry)];
        }),
      );
    };
    for (const [name, definition] of Object.entries(definitions)) {
      const component = renamed.get(name)!;
      if (Object.keys(this.schemas[component]!).length === 0) {
        this.schemas[component] = rewrite(definition) as JsonSchema;
      }
    }
    return rewrite(rest) as JsonSchema;
  }
}

/**
 * A tuple as an array of its length whose items may be any of the tuple's. JSON Schema 2020-12
 * spells a tuple `prefixItems`, which tools still read poorly: Schemathesis 4.32 rewrites it to the
 * draft-7 `items: [...]` and then refuses its own rewrite, so the operations that return a
 * customer's `tax_id` could not be tested. The API still checks each position.
 */
function writeTupleAsArray({
  zodSchema,
  jsonSchema: schema,
}: {
  zodSchema: unknown;
  jsonSchema: JsonSchema;
}) {
  if ((zodSchema as z.ZodType)._zod.def.type !== 'tuple' || !Array.isArray(schema.prefixItems)) return;
  const positions = schema.prefixItems as JsonSchema[];
  delete schema.prefixItems;
  schema.items = positions.length === 1 ? positions[0] : { anyOf: positions };
  schema.minItems = positions.length;
  schema.maxItems = positions.length;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: SchemaComponents): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: writeTupleAsArray,
  }) as JsonSchema;
  return components.adopt(rest);
}

function parametersOf(
  schema: z.ZodType | undefined,
  location: 'path' | 'query',
  components: SchemaComponents,
) {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input', components) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    // An object in the query (`metadata`) is sent as `metadata[key]=value`, as Polar's SDK does and
    // the server reads it; OpenAPI's default (form) would put its keys at the top level.
    ...(location === 'query' && (property as { type?: unknown }).type === 'object'
      ? { style: 'deepObject', explode: true }
      : {}),
    schema: property,
  }));
}

/** `{ error, detail }` for the named errors of one status. */
const errorBody = (names: readonly ErrorName[]) => ({
  type: 'object',
  required: ['error', 'detail'],
  properties: {
    error: names.length === 1 ? { const: names[0] } : { enum: [...names] },
    detail: { type: 'string' },
  },
});

/** FastAPI's validation answer, which Polar gives: `{ detail: [{ loc, msg, type }] }`. */
const validationErrorBody = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        required: ['loc', 'msg', 'type'],
        properties: {
          loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
          msg: { type: 'string' },
          type: { type: 'string' },
        },
      },
    },
  },
};

/**
 * The named errors an operation may answer: its own, and those of the middleware in front of it.
 * Every /v1 call draws from a rate limit (429); a caller's operation needs authentication (401)
 * and a token scope that allows it (403), and a POST may carry an `Idempotency-Key` whose first
 * request still runs (409); a body may be too large (413) or not JSON (415); a path whose
 * percent-encoding is broken is refused before routing (400).
 */
function errorNamesOf(spec: OperationSpec): ErrorName[] {
  const names = new Set<ErrorName>(['TooManyRequests']);
  if (spec.customer) names.add('Unauthorized');
  else if (!spec.public) names.add('Unauthorized').add('NotPermitted');
  if (!spec.public && !spec.customer && spec.method === 'post') names.add('Conflict');
  if (spec.body) names.add('PayloadTooLarge').add('UnsupportedMediaType');
  if (spec.params) names.add('BadRequest');
  for (const name of spec.errors ?? []) names.add(name);
  return [...names];
}

/** Whether the operation may answer a validation error (422 `{ detail: [...] }`). */
const validatesInput = (spec: OperationSpec) =>
  !spec.oauthErrors &&
  (Boolean(spec.params || spec.query || spec.body) || (!spec.public && spec.method === 'post'));

/** RFC 6749 §5.2's error answer. */
const oauthErrorBody = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    error_description: { type: 'string' },
    redirect_to: {
      type: 'string',
      description: 'Where the browser goes with the error, once the redirect URI is known good',
    },
  },
};

/** The error answers of an operation, one per status; a status with two shapes documents both. */
function errorResponses(spec: OperationSpec): Record<string, unknown> {
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of errorNamesOf(spec)) {
    byStatus.set(ERRORS[name].status, [...(byStatus.get(ERRORS[name].status) ?? []), name]);
  }
  if (validatesInput(spec) && !byStatus.has(422)) byStatus.set(422, []);
  for (const status of spec.oauthStatuses ?? []) if (!byStatus.has(status)) byStatus.set(status, []);
  const responses: Record<string, unknown> = {};
  for (const [status, names] of [...byStatus].sort(([a], [b]) => a - b)) {
    const isOAuth = (spec.oauthStatuses as readonly number[] | undefined)?.includes(status) ?? false;
    const shapes = [
      ...(status === 422 && validatesInput(spec) ? [validationErrorBody] : []),
      ...(isOAuth ? [oauthErrorBody] : []),
      ...(names.length > 0 ? [errorBody(names)] : []),
    ];
    const descriptions = [
      ...(status === 422 && validatesInput(spec) ? ['Validation Error'] : []),
      ...(isOAuth ? ['An OAuth 2.0 error (RFC 6749 §5.2)'] : []),
      ...names.map((name) => `${name}: ${ERRORS[name].message}`),
    ];
    responses[status] = {
      description: descriptions.join(' Or '),
      content: { 'application/json': { schema: shapes.length === 1 ? shapes[0] : { oneOf: shapes } } },
    };
  }
  return responses;
}

/** OpenAPI 3.1 (JSON Schema 2020-12, which is what zod writes) for every registered operation. */
export function openApiDocument(
  operations: readonly OperationSpec[],
  info: { version: string; serverUrl: string; apiVersion: RequestedApiVersion },
) {
  const components = new SchemaComponents();
  const inVersion = <T extends z.ZodType>(schema: T) => schemaForVersion(schema, info.apiVersion);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of operations) {
    const status = spec.status ?? (spec.method === 'post' ? 201 : 200);
    const responses: Record<string, unknown> = {
      [status]: spec.response
        ? {
            description: 'Successful Response',
            content: {
              [spec.mediaType ?? 'application/json']: {
                schema: jsonSchema(inVersion(spec.response), 'output', components),
              },
            },
          }
        : { description: 'Successful Response' },
      ...errorResponses(spec),
    };
    const path = `/v1${spec.path}`;
    paths[path] ??= {};
    paths[path][spec.method] = {
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.extension ? { 'x-tollgate': spec.extension } : {}),
      tags: [spec.tag],
      ...(spec.public ? { security: (spec.security ?? []).map((scheme) => ({ [scheme]: [] })) } : {}),
      ...(spec.customer ? { security: [{ customer_session: [] }] } : {}),
      parameters: [
        ...parametersOf(spec.params, 'path', components),
        ...parametersOf(spec.query, 'query', components),
      ],
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: {
                [spec.requestMediaType ?? 'application/json']: {
                  schema: jsonSchema(inVersion(spec.body), 'input', components),
                },
              },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: info.apiVersion
      ? {
          title: `Tollgate payments API, version ${info.apiVersion}`,
          // As Polar's per-version documents: the version is the document's.
          version: info.apiVersion,
          description: `Polar-compatible, the shapes of Polar's dated API version ${info.apiVersion}: send \`Polar-Version: ${info.apiVersion}\` with every request. Tollgate ${info.version}. Authenticate with an organization access token as a Bearer token, or the dashboard's session cookie.`,
        }
      : {
          title: 'Tollgate payments API',
          version: info.version,
          description:
            "Polar-compatible, unversioned: the shapes @polar-sh/sdk 0.33.2 and 0.48.1 read, with every field the dated versions add (send no Polar-Version). Authenticate with an organization access token as a Bearer token, or the dashboard's session cookie.",
        },
    servers: [{ url: info.serverUrl }],
    security: [{ access_token: [] }],
    components: {
      schemas: components.schemas,
      securitySchemes: SECURITY_SCHEMES,
    },
    paths,
  };
}
