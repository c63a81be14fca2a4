import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ClaimSeat } from '../portal/seat-claim';

/** A seat invitation's emailed link: `?invitation_token=` names the seat. */
const searchSchema = z.object({ invitation_token: z.string().min(1).max(200).optional().catch(undefined) });

export const Route = createFileRoute('/portal/$organizationSlug/claim')({
  validateSearch: searchSchema,
  component: ClaimSeatPage,
});

function ClaimSeatPage() {
  const { organizationSlug: slug } = Route.useParams();
  const { invitation_token: token } = Route.useSearch();
  return <ClaimSeat slug={slug} token={token} />;
}
