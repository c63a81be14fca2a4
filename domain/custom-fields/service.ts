import type { Db } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import {
  accessibleOrganizationIds,
  assertCanManage,
  organizationForWrite,
  organizationsToList,
} from '../access/service.js';
import { AppError, InvalidFieldError, InvalidInputError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import type { PageQuery } from '../platform/schemas.js';
import {
  deleteCustomField as removeCustomField,
  findCustomField,
  findCustomFieldBySlug,
  insertCustomField,
  listCustomFields as queryCustomFields,
  updateCustomField as saveCustomField,
} from './repository.js';
import { propertiesIssues } from './rules.js';
import type {
  CustomField,
  CustomFieldCreate,
  CustomFieldProperties,
  CustomFieldType,
  CustomFieldUpdate,
} from './schemas.js';
import { customFieldView } from './views.js';

function assertValidProperties(properties: CustomFieldProperties) {
  const issues = propertiesIssues(properties);
  if (issues.length > 0) {
    throw new InvalidInputError(
      issues.map((issue) => ({
        loc: ['body', 'properties', ...issue.path],
        msg: issue.message,
        type: 'value_error',
      })),
    );
  }
}

const slugTaken = () =>
  new InvalidFieldError(['body', 'slug'], 'A custom field with this slug already exists.');

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

const SORT_COLUMNS = { created_at: 'createdAt', slug: 'slug', name: 'name', type: 'type' } as const;

export async function listCustomFields(
  db: Db,
  caller: Caller,
  query: PageQuery & {
    organization_id?: string | string[];
    query?: string;
    type?: CustomFieldType | CustomFieldType[];
    sorting?: string[];
  },
) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const types = query.type === undefined ? undefined : [query.type].flat();
  const where: Prisma.CustomFieldWhereInput & { organizationId: { in: string[] } } = {
    organizationId: { in: organizationIds },
    ...(types ? { type: { in: types } } : {}),
    ...(query.query
      ? {
          OR: [
            { name: { contains: query.query, mode: 'insensitive' } },
            { slug: { contains: query.query, mode: 'insensitive' } },
          ],
        }
      : {}),
  };
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['slug']).map(
    ({ field, direction }) => ({ [SORT_COLUMNS[field]]: direction }),
  );
  const [rows, total] = await queryCustomFields(
    db,
    where,
    [...orderBy, { id: 'asc' }],
    pageToSkipTake(query),
  );
  return paginated(rows.map(customFieldView), total, query);
}

async function findReadable(db: Db, caller: Caller, id: string) {
  const row = await findCustomField(db, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'Custom field not found');
  return row;
}

export async function getCustomField(db: Db, caller: Caller, id: string): Promise<CustomField> {
  return customFieldView(await findReadable(db, caller, id));
}

export async function createCustomField(
  db: Db,
  caller: Caller,
  input: CustomFieldCreate,
): Promise<CustomField> {
  const organizationId = await organizationForWrite(db, caller, input.organization_id, ORGANIZATION_MANAGERS);
  assertValidProperties(input.properties);
  if (await findCustomFieldBySlug(db, organizationId, input.slug)) throw slugTaken();
  try {
    const row = await insertCustomField(db, {
      organizationId,
      type: input.type,
      slug: input.slug,
      name: input.name,
      properties: input.properties,
      metadata: input.metadata ?? {},
    });
    return customFieldView(row);
  } catch (error) {
    // Two creations with one slug at once: the unique index decides.
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  }
}

export async function updateCustomField(
  db: Db,
  caller: Caller,
  id: string,
  input: CustomFieldUpdate,
): Promise<CustomField> {
  const existing = await findReadable(db, caller, id);
  await assertCanManage(db, caller, existing.organizationId, ORGANIZATION_MANAGERS);
  if (input.type !== existing.type) {
    throw new InvalidFieldError(
      ['body', 'type'],
      `The type of a custom field cannot change (it is ${existing.type}).`,
    );
  }
  if (input.properties) assertValidProperties(input.properties);
  if (input.slug && input.slug !== existing.slug) {
    if (await findCustomFieldBySlug(db, existing.organizationId, input.slug)) throw slugTaken();
  }
  try {
    const row = await saveCustomField(db, id, existing.organizationId, {
      ...(input.slug ? { slug: input.slug } : {}),
      ...(input.name ? { name: input.name } : {}),
      ...(input.properties ? { properties: input.properties } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
      modifiedAt: new Date(),
    });
    return customFieldView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  }
}

/** Deleting a field detaches it from every product (the attachment rows go with it). */
export async function deleteCustomField(db: Db, caller: Caller, id: string): Promise<void> {
  const existing = await findReadable(db, caller, id);
  await assertCanManage(db, caller, existing.organizationId, ORGANIZATION_MANAGERS);
  await removeCustomField(db, id, existing.organizationId);
}
