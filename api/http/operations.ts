import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import type { Caller } from '../../domain/access/rules.js';
import { ACCESS_TOKEN_SCOPES } from '../../domain/access-tokens/schemas.js';
import { AppError, ERRORS, type ErrorName } from '../../domain/platform/errors.js';
import { callerOf } from './authenticate.js';
import { parseBody, parsePath, parseQuery } from './validation.js';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

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
  status?: 200 | 201 | 202 | 204;
  /** Named errors the operation may answer, documented beside 401 and 422. */
  errors?: readonly ErrorName[];
  /** Set by `addPublic`: operations anyone may call, such as the OpenAPI document itself. */
  public?: boolean;
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
 * for its organization.
 */
function assertScope(caller: Caller, resource: string, method: Method): void {
  if (caller.kind !== 'organization_access_token' || caller.scopes.length === 0) return;
  if (!KNOWN_SCOPES.has(`${resource}:read`)) return;
  const write = `${resource}:write`;
  const allowed = method === 'get' ? [`${resource}:read`, write] : [write];
  if (!allowed.some((scope) => caller.scopes.includes(scope))) {
    throw new AppError('NotPermitted', `The access token lacks the ${allowed.at(-1)} scope.`);
  }
}

const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The input of an operation anyone may call: no caller (the checkout's client secret is the key). */
export type PublicOperationInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = Omit<
  OperationInput<P, Q, B>,
  'caller'
>;

/** Registers operations on the /v1 router and remembers them for the OpenAPI document. */
export class OperationRegistry {
  readonly operations: OperationSpec[] = [];

  constructor(private readonly router: Router) {}

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
    this.router[spec.method](toExpressPath(spec.path), async (req, res) => {
      const params = spec.params ? parsePath(spec.params, req) : {};
      const query = spec.query ? parseQuery(spec.query, req) : {};
      const body = spec.body ? parseBody(spec.body, req) : undefined;
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
      if (status === 204 || result === undefined) res.status(status).end();
      // The declared schema decides what goes out: a field a view adds by mistake never leaks.
      else res.status(status).json(spec.response ? spec.response.parse(result) : result);
    });
  }
}

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

const errorBody = (name: string) => ({
  type: 'object',
  required: ['error', 'detail'],
  properties: { error: { const: name }, detail: { type: 'string' } },
});

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

/** OpenAPI 3.1 (JSON Schema 2020-12, which is what zod writes) for every registered operation. */
export function openApiDocument(
  operations: readonly OperationSpec[],
  info: { version: string; serverUrl: string },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of operations) {
    const status = spec.status ?? (spec.method === 'post' ? 201 : 200);
    const responses: Record<string, unknown> = {
      [status]: spec.response
        ? {
            description: 'Successful Response',
            content: { 'application/json': { schema: jsonSchema(spec.response, 'output') } },
          }
        : { description: 'Successful Response' },
    };
    if (spec.params || spec.query || spec.body) {
      responses['422'] = {
        description: 'Validation Error',
        content: { 'application/json': { schema: validationErrorBody } },
      };
    }
    const errors: ErrorName[] = [...(spec.public ? [] : (['Unauthorized'] as const)), ...(spec.errors ?? [])];
    for (const name of errors) {
      responses[ERRORS[name].status] = {
        description: ERRORS[name].message,
        content: { 'application/json': { schema: errorBody(name) } },
      };
    }
    const path = `/v1${spec.path}`;
    paths[path] ??= {};
    paths[path][spec.method] = {
      operationId: spec.operationId,
      summary: spec.summary,
      tags: [spec.tag],
      ...(spec.public ? { security: [] } : {}),
      parameters: [...parametersOf(spec.params, 'path'), ...parametersOf(spec.query, 'query')],
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(spec.body, 'input') } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tollgate payments API',
      version: info.version,
      description:
        "Polar-compatible (@polar-sh/sdk 0.33.2). Authenticate with an organization access token as a Bearer token, or the dashboard's session cookie.",
    },
    servers: [{ url: info.serverUrl }],
    security: [{ access_token: [] }],
    components: {
      securitySchemes: {
        access_token: { type: 'http', scheme: 'bearer', description: 'Organization access token' },
      },
    },
    paths,
  };
}
