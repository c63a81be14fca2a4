import { createFileRoute } from '@tanstack/react-router';
import { requireSession } from '../auth/session';

/** Every page below needs a signed-in user (`/dashboard`, `/admin`, `/account`); they read it as `context.session`. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context }) => ({ session: await requireSession(context.queryClient) }),
});
