// The seller's public portal page (Polar's portal `organization`): who they are and what they sell.
// No session: anyone may read it by the organization's slug.

import { findOrganizationBySlug } from '../organizations/repository.js';
import { AppError } from '../platform/errors.js';
import { findLiveProductsOfOrganization } from '../products/repository.js';
import { productView } from '../products/views.js';
import { organizationWire, type PortalContext } from './context.js';
import { customerOrganizationSchema, type CustomerOrganization } from './schemas.js';

export async function getPortalOrganization(ctx: PortalContext, slug: string): Promise<CustomerOrganization> {
  const found = await findOrganizationBySlug(ctx.db, slug);
  if (!found) throw new AppError('ResourceNotFound', 'Organization not found');
  const organization = await organizationWire(ctx.db, found.id);
  const products = await findLiveProductsOfOrganization(ctx.db, found.id);
  return customerOrganizationSchema.parse({
    organization,
    products: products.map((row) => productView(row, ctx.publicUrl)),
  });
}
