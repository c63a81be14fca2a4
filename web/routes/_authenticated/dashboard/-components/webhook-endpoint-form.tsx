import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { webhookEndpointSchema } from '../../../../../domain/webhooks/schemas';
import { sendJson } from '../../../../api';
import { formValues } from '../../../../components';
import { ResourceForm } from '../../../../resources/resource-page';
import { checkedEvents, EndpointFields, SecretOnce } from '../../../../webhooks/components';
import { generateWebhookSecret } from '../../../../webhooks/secret';

export function WebhookEndpointForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  // Remounts the fields after a creation, which empties them.
  const [generation, setGeneration] = useState(0);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const chosen = values.secret || generateWebhookSecret();
    try {
      await sendJson(
        'POST',
        '/v1/webhooks/endpoints',
        {
          organization_id: organizationId,
          url: values.url,
          format: values.format,
          events: checkedEvents(form),
          secret: chosen,
        },
        webhookEndpointSchema,
      );
      setError(null);
      setSecret(chosen);
      setGeneration(generation + 1);
      await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints', organizationId] });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <ResourceForm
      title="Add an endpoint"
      onSubmit={onSubmit}
      error={error}
      notice={secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      formKey={generation}
    >
      <EndpointFields />
      <label className="field">
        <span>Signing secret (leave empty to generate one)</span>
        <input name="secret" autoComplete="off" />
      </label>
      <div>
        <button type="submit">Add endpoint</button>
      </div>
    </ResourceForm>
  );
}
