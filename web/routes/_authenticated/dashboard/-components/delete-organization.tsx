import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { authClient, errorMessage } from '../../../../auth/client';
import { Card, ConfirmButton, ErrorNote } from '../../../../components';

export function DeleteOrganization({ organizationId, name }: { organizationId: string; name: string }) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    const result = await authClient.organization.delete({ organizationId });
    if (result.error) return setError(errorMessage(result.error));
    await navigate({ to: '/dashboard' });
  }
  return (
    <Card title="Delete organization">
      <p>Deleting {name} removes its members, teams, invitations and access tokens. It cannot be undone.</p>
      <ConfirmButton
        label="Delete organization"
        className="danger"
        question={`Delete ${name} for good?`}
        onConfirm={remove}
      />
      <ErrorNote message={error} />
    </Card>
  );
}
