// Plain SQL over the rows Prisma describes. Every column of our schema is the snake_case of its
// Prisma field (`currentPeriodEnd` ↔ `current_period_end`), so a model's scalar field names are
// enough to read its rows in exactly the shape Prisma returns (node-postgres gives Date for
// timestamptz, parsed JSON for jsonb, numbers for integers) and to write them.
// infra/sql.int.test.ts holds each use to what Prisma reads.
import { Prisma } from '../generated/prisma/client.js';
import type { SqlClient } from './db.js';

export const columnOf = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** `alias.created_at AS "createdAt", …` for the fields of a model's ScalarFieldEnum. */
export function selectList(fields: Record<string, string>, alias: string): string {
  return Object.keys(fields)
    .map((field) => `${alias}.${columnOf(field)} AS "${field}"`)
    .join(', ');
}

/** `created_at AS "createdAt", …` for RETURNING. */
export function returningList(fields: Record<string, string>): string {
  return Object.keys(fields)
    .map((field) => `${columnOf(field)} AS "${field}"`)
    .join(', ');
}

/** A value as a query parameter: JSON columns as text cast by the statement. */
function parameter(value: unknown): unknown {
  if (value === undefined || value === null || value instanceof Date) return value ?? null;
  if (typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && !Array.isArray(value)) {
    // Prisma's null sentinels (DbNull, JsonNull) are objects: as JSON they would be stored as {}.
    throw new TypeError('plain SQL takes null, not a Prisma null sentinel, for an empty JSON column');
  }
  return JSON.stringify(value);
}

/**
 * `INSERT INTO table (…) VALUES (…), (…) RETURNING …`: every row has the same fields. `jsonFields`
 * are cast to jsonb; with `onConflictDoNothing` a row that collides with a unique key is skipped
 * (and not returned).
 */
export async function insertRows<T>(
  sql: SqlClient,
  table: string,
  rows: Record<string, unknown>[],
  options: {
    returning: Record<string, string>;
    jsonFields?: readonly string[];
    onConflictDoNothing?: boolean;
  },
): Promise<T[]> {
  if (rows.length === 0) return [];
  const fields = Object.keys(rows[0]!);
  const json = new Set(options.jsonFields ?? []);
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const placeholders = fields.map((field) => {
      values.push(parameter(row[field]));
      return `$${values.length}${json.has(field) ? '::jsonb' : ''}`;
    });
    return `(${placeholders.join(', ')})`;
  });
  const { rows: inserted } = await sql.query(
    `INSERT INTO ${table} (${fields.map(columnOf).join(', ')}) VALUES ${tuples.join(', ')}
     ${options.onConflictDoNothing ? 'ON CONFLICT DO NOTHING' : ''} RETURNING ${returningList(options.returning)}`,
    values,
  );
  return inserted as T[];
}

/** `UPDATE table SET … WHERE id = $1 RETURNING …`; null when no row has that id. */
export async function updateRow<T>(
  sql: SqlClient,
  table: string,
  id: string,
  data: Record<string, unknown>,
  options: { returning: Record<string, string>; jsonFields?: readonly string[] },
): Promise<T | null> {
  const json = new Set(options.jsonFields ?? []);
  const fields = Object.keys(data).filter((field) => data[field] !== undefined);
  const values: unknown[] = [id];
  const assignments = fields.map((field) => {
    values.push(parameter(data[field]));
    return `${columnOf(field)} = $${values.length}${json.has(field) ? '::jsonb' : ''}`;
  });
  const { rows } = await sql.query(
    `UPDATE ${table} SET ${assignments.join(', ')} WHERE id = $1::uuid RETURNING ${returningList(options.returning)}`,
    values,
  );
  return (rows[0] as T | undefined) ?? null;
}

/**
 * The fields of a model that JSON cannot carry as Prisma gives them, and what they are: instants
 * (ISO text in JSON) and decimals (text, so that no digit is lost to a double). Written out per
 * model; the type makes the list complete (a missing or extra field does not compile), and a field
 * no JSON text can rebuild (bigint) is refused.
 */
export type JsonRevivals<T> = {
  [K in keyof T as NonNullable<T[K]> extends Date | Prisma.Decimal | bigint ? K : never]-?: NonNullable<
    T[K]
  > extends Date
    ? 'date'
    : NonNullable<T[K]> extends Prisma.Decimal
      ? 'decimal'
      : never;
};

/**
 * `alias.created_at AS "createdAt", …` for rows that a statement turns into JSON (`json_agg`):
 * decimals as text.
 */
export function jsonSelectList(
  fields: Record<string, string>,
  alias: string,
  revivals: Readonly<Record<string, 'date' | 'decimal'>>,
): string {
  const decimals = new Set(
    Object.entries(revivals)
      .filter(([, kind]) => kind === 'decimal')
      .map(([field]) => field),
  );
  return Object.keys(fields)
    .map((field) => `${alias}.${columnOf(field)}${decimals.has(field) ? '::text' : ''} AS "${field}"`)
    .join(', ');
}

/**
 * A row read as JSON (see `jsonSelectList`) in the exact shape Prisma returns
 * (api/v1/customers-state.int.test.ts compares such rows with Prisma's).
 */
export function revive<T>(row: Record<string, unknown>, revivals: JsonRevivals<T>): T {
  const revived = { ...row };
  for (const [field, kind] of Object.entries(revivals) as [string, 'date' | 'decimal'][]) {
    const value = row[field];
    if (typeof value !== 'string') continue;
    revived[field] = kind === 'date' ? new Date(value) : new Prisma.Decimal(value);
  }
  return revived as T;
}
