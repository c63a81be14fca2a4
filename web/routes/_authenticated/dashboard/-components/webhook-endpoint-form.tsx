import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { webhookEndpointSchema } from '../../../../../domain/webhooks/schemas';
import { sendJson } from '../../../../api';
import { formValues } from '../../../../components';
import { ResourceForm } from '../../../../resources/resource-page';
import { FormField, focusFirstInvalid } from '../../../../forms/form-field';
import { formErrorsInWords, NO_ERRORS, type FormErrors } from '../../../../forms/messages';
import { checkedEvents, ENDPOINT_WORDS, EndpointFields, SecretOnce } from '../../../../webhooks/components';
import { generateWebhookSecret } from '../../../../webhooks/secret';

export function WebhookEndpointForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
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
          api_version: values.api_version,
          events: checkedEvents(form),
          secret: chosen,
        },
        webhookEndpointSchema,
      );
      setErrors(NO_ERRORS);
      setSecret(chosen);
      setGeneration(generation + 1);
      await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints', organizationId] });
    } catch (failure) {
      setErrors(formErrorsInWords(failure, ENDPOINT_WORDS));
      requestAnimationFrame(() => focusFirstInvalid(form));
    }
  }
  return (
    <ResourceForm
      title="Add an endpoint"
      onSubmit={onSubmit}
      error={errors.form}
      notice={secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      formKey={generation}
    >
      <EndpointFields errors={errors.fields} />
      <FormField
        label="Signing secret (leave empty to generate one)"
        field="secret"
        error={errors.fields.secret}
        markOptional={false}
        className="field"
      >
        {(control) => <input {...control} name="secret" autoComplete="off" maxLength={255} />}
      </FormField>
      <div>
        <button type="submit">Add endpoint</button>
      </div>
    </ResourceForm>
  );
}
