import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { webhookEndpointSchema, type WebhookEndpointResponse } from '../../../../../domain/webhooks/schemas';
import { deleteResource, sendJson } from '../../../../api';
import {
  Card,
  ConfirmButton,
  ErrorNote,
  formatDateTime,
  formValues,
  SuccessNote,
} from '../../../../components';
import { formErrorsInWords, NO_ERRORS, type FormErrors } from '../../../../forms/messages';
import { checkedEvents, ENDPOINT_WORDS, EndpointFields, SecretOnce } from '../../../../webhooks/components';
import { webhookEndpointQuery } from '../../../../webhooks/queries';
import { generateWebhookSecret } from '../../../../webhooks/secret';
import '../../../../webhooks/webhooks.css';

/** An endpoint's URL, format and events, its switch, secret rotation and deletion. */
export function WebhookEndpointSettings({
  endpoint,
  canManage,
}: {
  endpoint: WebhookEndpointResponse;
  /** Members see the settings without the means to change them (the API allows owners and admins). */
  canManage: boolean | null;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [saved, setSaved] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  async function update(body: Record<string, unknown>, done: string) {
    try {
      const updated = await sendJson(
        'PATCH',
        `/v1/webhooks/endpoints/${endpoint.id}`,
        body,
        webhookEndpointSchema,
      );
      queryClient.setQueryData(webhookEndpointQuery(endpoint.id).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
      // Enabling or disabling changes the endpoint's health and its next retries.
      await queryClient.invalidateQueries({ queryKey: ['webhook-endpoint', endpoint.id, 'health'] });
      setErrors(NO_ERRORS);
      setSaved(done);
      return true;
    } catch (failure) {
      setErrors(formErrorsInWords(failure, ENDPOINT_WORDS));
      setSaved(null);
      return false;
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    await update(
      {
        url: values.url,
        format: values.format,
        api_version: values.api_version,
        events: checkedEvents(form),
      },
      'Endpoint saved.',
    );
  }

  async function rotateSecret() {
    const chosen = generateWebhookSecret();
    if (await update({ secret: chosen }, 'New signing secret in use.')) setSecret(chosen);
  }

  return (
    <Card title={`Endpoint ${endpoint.url}`}>
      <p>
        {endpoint.enabled ? 'Enabled' : 'Disabled'} · created {formatDateTime(endpoint.created_at)}
      </p>
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      <form
        key={endpoint.modified_at ?? endpoint.created_at}
        onSubmit={onSubmit}
        className="stack"
        noValidate
      >
        <fieldset className="plain-fieldset stack" disabled={!canManage}>
          <EndpointFields
            url={endpoint.url}
            format={endpoint.format}
            apiVersion={endpoint.api_version}
            events={endpoint.events}
            errors={errors.fields}
          />
        </fieldset>
        {canManage === false ? (
          <p className="muted">Only owners and admins can change this endpoint.</p>
        ) : null}
        {canManage ? (
          <div className="button-row webhook-actions">
            <button type="submit">Save endpoint</button>
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void update(
                  { enabled: !endpoint.enabled },
                  endpoint.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.',
                )
              }
            >
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </button>
            <ConfirmButton
              label="Rotate secret"
              question="Replace the signing secret? Receivers must use the new one."
              onConfirm={rotateSecret}
            />
            <ConfirmButton
              label="Delete endpoint"
              question="Delete this endpoint?"
              className="danger"
              onConfirm={() =>
                deleteResource(`/v1/webhooks/endpoints/${endpoint.id}`)
                  .then(() => navigate({ to: '/dashboard/webhooks' }))
                  .catch((failure: Error) => setErrors({ fields: {}, form: failure.message }))
              }
            />
          </div>
        ) : null}
      </form>
      <SuccessNote message={saved} />
      <ErrorNote message={errors.form} />
    </Card>
  );
}
