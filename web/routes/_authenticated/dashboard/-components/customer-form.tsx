import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { customerSchema } from '../../../../../domain/customers/schemas';
import { sendJson } from '../../../../api';
import { Field, formValues } from '../../../../components';
import { ResourceForm } from '../../../../resources/resource-page';

export function CustomerForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { email = '', name, external_id: externalId } = formValues(form);
    try {
      await sendJson(
        'POST',
        '/v1/customers/',
        { organization_id: organizationId, email, name: name || null, external_id: externalId || null },
        customerSchema,
      );
      setError(null);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: ['customers', organizationId] });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <ResourceForm title="Add a customer" onSubmit={onSubmit} error={error} layout="inline-form">
      <Field label="Customer email" name="email" type="email" />
      <Field label="Customer name" name="name" required={false} />
      <Field label="External ID" name="external_id" required={false} />
      <button type="submit">Add customer</button>
    </ResourceForm>
  );
}
