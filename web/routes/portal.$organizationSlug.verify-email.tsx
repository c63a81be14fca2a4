import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ConfirmEmailChange } from '../portal/email-address';

/** The emailed link of an email change: `?token=` names the request. */
const searchSchema = z.object({ token: z.string().min(1).max(128).optional().catch(undefined) });

export const Route = createFileRoute('/portal/$organizationSlug/verify-email')({
  validateSearch: searchSchema,
  component: VerifyEmailPage,
});

function VerifyEmailPage() {
  const { organizationSlug: slug } = Route.useParams();
  const { token } = Route.useSearch();
  return <ConfirmEmailChange slug={slug} token={token} />;
}
