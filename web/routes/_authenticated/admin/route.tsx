import { createFileRoute, ErrorComponent, type ErrorComponentProps } from '@tanstack/react-router';
import { NotAnAdministrator, requireAdministrator } from '../../../auth/session';

export const Route = createFileRoute('/_authenticated/admin')({
  beforeLoad: ({ context }) => requireAdministrator(context.session),
  errorComponent: AdminError,
});

function AdminError({ error }: ErrorComponentProps) {
  if (!(error instanceof NotAnAdministrator)) return <ErrorComponent error={error} />;
  return (
    <section>
      <h1>Administration</h1>
      <p className="error-note" role="alert">
        You are not allowed here: these pages are for the deployment’s administrators.
      </p>
    </section>
  );
}
