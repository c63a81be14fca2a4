import type { Metadata } from './schemas.js';

/** Metadata as stored (jsonb), read back; anything else than an object reads as empty. */
export function readMetadata(value: unknown): Metadata {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const entries = Object.entries(value as Record<string, unknown>).filter(
    (entry): entry is [string, string | number | boolean] =>
      ['string', 'number', 'boolean'].includes(typeof entry[1]),
  );
  return Object.fromEntries(entries);
}

export type MetadataQuery = Record<string, string[]>;

/**
 * Polar's `metadata` list filter in deepObject style: `?metadata[key]=value`, repeatable. The
 * extended query parser hands it over as an object under `metadata`; a plain parser as
 * `metadata[key]` keys. Both are read.
 */
export function metadataQueryFrom(query: Record<string, unknown>): MetadataQuery {
  const filter: MetadataQuery = {};
  const nested = query.metadata;
  const entries: [string | undefined, unknown][] = [
    ...(nested && typeof nested === 'object' && !Array.isArray(nested) ? Object.entries(nested) : []),
    ...Object.entries(query).map(([name, value]): [string | undefined, unknown] => [
      /^metadata\[(.+)\]$/.exec(name)?.[1],
      value,
    ]),
  ];
  for (const [key, value] of entries) {
    if (!key) continue;
    const values = (Array.isArray(value) ? value : [value]).filter(
      (entry): entry is string => typeof entry === 'string',
    );
    filter[key] = [...(filter[key] ?? []), ...values];
  }
  return filter;
}

/**
 * The stored values one query string stands for: query strings carry no type, so `42` matches the
 * string "42" and the number 42, `true` the string and the boolean.
 */
export function metadataQueryCandidates(value: string): (string | number | boolean)[] {
  const candidates: (string | number | boolean)[] = [value];
  if (value.trim() !== '' && Number.isFinite(Number(value))) candidates.push(Number(value));
  if (value === 'true' || value === 'false') candidates.push(value === 'true');
  return candidates;
}

/** A JSON filter on `metadata` per queried key: each key must hold one of its values. */
export function metadataWhere(query: Record<string, string | string[]>) {
  return Object.entries(query).map(([key, values]) => ({
    OR: (Array.isArray(values) ? values : [values]).flatMap((value) =>
      metadataQueryCandidates(value).map((candidate) => ({ metadata: { path: [key], equals: candidate } })),
    ),
  }));
}
