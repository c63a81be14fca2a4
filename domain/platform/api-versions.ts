// Dated API versions, as Polar's current SDKs select them with a `Polar-Version: YYYY-MM` header
// (docs/api-versions.md). A field that exists only in some versions says so beside its schema with
// `inVersions`; the response serializer, the per-version OpenAPI documents and the webhook
// payloads all derive their shape from that one declaration through `schemaForVersion`.
import { z } from 'zod';

/** Oldest first: a range `{ from, to }` compares by this order. */
export const API_VERSIONS = ['2026-04', '2026-10', '2027-01'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/**
 * The version Polar's current SDKs call current (polar-sdk 1.0.2): what a webhook endpoint made
 * without naming one renders its payloads in.
 */
export const CURRENT_API_VERSION: ApiVersion = '2026-10';

export const apiVersionSchema = z.enum(API_VERSIONS, {
  message: `Choose one of the API versions ${API_VERSIONS.join(', ')}.`,
});

/**
 * What a caller asked for: one of the versions, or the unversioned API (no header), which serves
 * the shapes both unversioned official SDKs (0.33.2 and 0.48.1) validate: every field of every
 * version that an older client can ignore.
 */
export type RequestedApiVersion = ApiVersion | null;

export const API_VERSION_HEADER = 'Polar-Version';

const VERSION_FORMAT = /^\d{4}-\d{2}$/;

export const isApiVersion = (value: unknown): value is ApiVersion =>
  typeof value === 'string' && (API_VERSIONS as readonly string[]).includes(value);

/**
 * The version a request's header names: null without one (or an empty one, as Polar reads it),
 * `undefined` when the value is not a version this server speaks.
 */
export function readApiVersionHeader(header: string | undefined): RequestedApiVersion | undefined {
  const value = header?.trim();
  if (!value) return null;
  return VERSION_FORMAT.test(value) && isApiVersion(value) ? value : undefined;
}

/** What a caller reads when it names a version this server does not speak. */
export function unknownVersionDetail(header: string): string {
  return `${API_VERSION_HEADER} "${header}" is not a version of this API. Send one of ${API_VERSIONS.join(', ')}, or no ${API_VERSION_HEADER} for the unversioned API.`;
}

/** The versions a field exists in, both ends included; an open end reaches the first or last version. */
export type VersionRange = { from?: ApiVersion; to?: ApiVersion };

const fieldVersions = z.registry<VersionRange>();

/**
 * Marks a field of an object shape as existing only in `range`:
 * `member_id: inVersions({ from: '2026-10' }, z.uuid().nullable())`. The unversioned API keeps
 * every field, so a client that sends no version still reads it.
 */
export function inVersions<T extends z.ZodType>(range: VersionRange, schema: T): T {
  checkRange(range);
  // A copy: the same schema object may stand for other fields, which keep every version.
  const copy = schema.clone();
  fieldVersions.add(copy, range);
  return copy as T;
}

function checkRange(range: VersionRange): void {
  if (!range.from && !range.to) throw new RangeError('A version range needs a first or a last version.');
  if (range.from && range.to && API_VERSIONS.indexOf(range.from) > API_VERSIONS.indexOf(range.to)) {
    throw new RangeError(`A version range cannot start (${range.from}) after it ends (${range.to}).`);
  }
}

/** How the versions of `range` show a value of a schema they do not have: as `as`, through `render`. */
export type VersionRendering = {
  range: VersionRange;
  as: z.ZodType;
  render: (value: unknown) => unknown;
};

// A plain map rather than a zod registry: a registry's value typed with a schema inside instantiates
// zod's types without end.
const renderings = new WeakMap<object, VersionRendering>();

/**
 * Marks a shape that the versions of `range` do not have, and what they show instead: in those
 * versions a value of `schema` is parsed by it, turned by `render` into a value of `as`, and
 * checked by `as`. A variant of a union whose `as` is another of its variants leaves the union in
 * those versions (their documents do not list it) and its values are rendered before the union
 * reads them: Polar's dated versions have no free price, so one renders as a fixed price of 0.
 */
export function renderedInVersions<T extends z.ZodType, As extends z.ZodType>(
  range: VersionRange,
  schema: T,
  rendering: { as: As; render: (value: z.output<T>) => z.input<As> },
): T {
  checkRange(range);
  const copy = schema.clone();
  renderings.set(copy, { range, as: rendering.as, render: rendering.render as (value: unknown) => unknown });
  return copy as T;
}

export function renderingOf(schema: z.ZodType): VersionRendering | undefined {
  return renderings.get(schema);
}

export function versionRangeOf(field: z.ZodType): VersionRange | undefined {
  return rangeOfField(field);
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** A field's range, marked on the field or on the schema its `.optional()`/`.nullable()` wraps. */
function rangeOfField(field: z.ZodType): VersionRange | undefined {
  for (let schema: z.ZodType | undefined = field; schema;) {
    const range = fieldVersions.get(schema);
    if (range) return range;
    const def = schema._zod.def as unknown as { type: string; innerType?: z.ZodType };
    schema = WRAPPERS.has(def.type) ? def.innerType : undefined;
  }
  return undefined;
}

function existsIn(field: z.ZodType, version: ApiVersion): boolean {
  const range = rangeOfField(field);
  return !range || inRange(range, version);
}

function inRange(range: VersionRange, version: ApiVersion): boolean {
  const index = API_VERSIONS.indexOf(version);
  return (
    (!range.from || API_VERSIONS.indexOf(range.from) <= index) &&
    (!range.to || index <= API_VERSIONS.indexOf(range.to))
  );
}

const derived = new Map<ApiVersion, WeakMap<z.ZodType, z.ZodType>>(
  API_VERSIONS.map((version) => [version, new WeakMap()]),
);

/**
 * `schema` as `version` has it: every object field outside its range left out, however deep.
 * The unversioned API (null) is the schema itself. A schema with nothing to leave out is returned
 * as it is, so its identity (and the OpenAPI component it names) is kept; one that changes is
 * derived once per version.
 */
export function schemaForVersion<T extends z.ZodType>(schema: T, version: RequestedApiVersion): T {
  if (version === null) return schema;
  return derive(schema, version, derived.get(version)!) as T;
}

function derive(schema: z.ZodType, version: ApiVersion, seen: WeakMap<z.ZodType, z.ZodType>): z.ZodType {
  const known = seen.get(schema);
  if (known) return known;
  // A recursive schema (a lazy one) reaches itself: until it is done, it stands for itself.
  seen.set(schema, schema);
  const result = rebuild(schema, version, seen);
  seen.set(schema, result);
  return result;
}

/** The same kind of schema with new inner parts, keeping its checks and its metadata. */
function withDefinition(schema: z.ZodType, changes: Record<string, unknown>): z.ZodType {
  const def = schema._zod.def as unknown as Record<string, unknown>;
  const copy = schema.clone({ ...def, ...changes } as unknown as typeof schema._zod.def);
  const meta = z.globalRegistry.get(schema);
  // The component id goes with the copy: each version's document names the shape as the
  // unversioned one does.
  return meta ? copy.meta(meta) : copy;
}

/** A rendering that `version` applies to `schema`, if any. */
function renderingIn(schema: z.ZodType, version: ApiVersion): VersionRendering | undefined {
  const rendering = renderings.get(schema);
  return rendering && inRange(rendering.range, version) ? rendering : undefined;
}

function rebuild(schema: z.ZodType, version: ApiVersion, seen: WeakMap<z.ZodType, z.ZodType>): z.ZodType {
  const rendering = renderingIn(schema, version);
  if (rendering) {
    // The schema's own shape as the version has it, then the rendering into the shape it shows.
    const own = rebuildShape(schema, version, seen);
    return own.transform(rendering.render).pipe(derive(rendering.as, version, seen));
  }
  return rebuildShape(schema, version, seen);
}

function rebuildShape(
  schema: z.ZodType,
  version: ApiVersion,
  seen: WeakMap<z.ZodType, z.ZodType>,
): z.ZodType {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (part: unknown) => derive(part as z.ZodType, version, seen);
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
      let changed = false;
      const kept: Record<string, z.ZodType> = {};
      for (const [key, field] of Object.entries(shape)) {
        if (!existsIn(field, version)) {
          changed = true;
          continue;
        }
        const next = inner(field);
        changed ||= next !== field;
        kept[key] = next;
      }
      const catchall = def.catchall ? inner(def.catchall) : undefined;
      changed ||= catchall !== def.catchall;
      return changed ? withDefinition(schema, { shape: kept, catchall }) : schema;
    }
    case 'array': {
      const element = inner(def.element);
      return element === def.element ? schema : withDefinition(schema, { element });
    }
    case 'union': {
      const given = def.options as z.ZodType[];
      const derivedOptions = given.map(inner);
      // A variant rendered as another variant of the same union leaves it: its values are
      // rendered first, and the union (and the document) lists the variant they become once.
      const folds = given.map((option) => {
        const rendering = renderingIn(option, version);
        return rendering && derivedOptions.includes(derive(rendering.as, version, seen))
          ? { own: rebuildShape(option, version, seen), render: rendering.render }
          : undefined;
      });
      const options = derivedOptions.filter((_, index) => !folds[index]);
      const unchanged =
        options.length === given.length && options.every((option, index) => option === given[index]);
      const union = unchanged ? schema : withDefinition(schema, { options });
      const folded = folds.filter((fold) => fold !== undefined);
      if (folded.length === 0) return union;
      return z.preprocess((value) => {
        for (const { own, render } of folded) {
          const parsed = own.safeParse(value);
          if (parsed.success) return render(parsed.data);
        }
        return value;
      }, union);
    }
    case 'intersection': {
      const left = inner(def.left);
      const right = inner(def.right);
      return left === def.left && right === def.right ? schema : withDefinition(schema, { left, right });
    }
    case 'pipe': {
      const input = inner(def.in);
      const output = inner(def.out);
      return input === def.in && output === def.out
        ? schema
        : withDefinition(schema, { in: input, out: output });
    }
    case 'record': {
      const valueType = inner(def.valueType);
      return valueType === def.valueType ? schema : withDefinition(schema, { valueType });
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional': {
      // WRAPPERS: the same kinds.
      const innerType = inner(def.innerType);
      return innerType === def.innerType ? schema : withDefinition(schema, { innerType });
    }
    case 'lazy': {
      // Deriving through a lazy schema would build it now; none of the recursive shapes
      // (meter filters, JSON values) has a versioned field.
      return schema;
    }
    default:
      return schema;
  }
}
