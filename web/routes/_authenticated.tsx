import { createFileRoute, Outlet, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { requireSession } from '../auth/session';

/** Every page below needs a signed-in user (`/dashboard`, `/admin`, `/account`); they read it as `context.session`. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context }) => ({ session: await requireSession(context.queryClient) }),
  component: SignedInPages,
});

/**
 * Fetches the code of every signed-in page once one is open. A route with a loader is shown only
 * when its code-split chunk has arrived, so without this the first click on a link would leave
 * the previous page on screen until then; with it, pages switch at once, as they did before.
 */
function SignedInPages() {
  const router = useRouter();
  useEffect(() => {
    for (const route of Object.values(router.routesById)) {
      // A chunk that fails to load here is fetched again when its page opens.
      if (route.id.startsWith(`${Route.id}/`)) void router.loadRouteChunk(route)?.catch(() => undefined);
    }
  }, [router]);
  return <Outlet />;
}
