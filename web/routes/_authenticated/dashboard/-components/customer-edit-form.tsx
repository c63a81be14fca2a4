import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { customerSchema, type CustomerState } from '../../../../../domain/customers/schemas';
import { deleteResource, sendJson } from '../../../../api';
import { Card, ConfirmButton, ErrorNote, Field, formValues, SuccessNote } from '../../../../components';
import { customerStateQuery } from '../../../../customers/queries';

export function CustomerEditForm({ customer }: { customer: CustomerState }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { email = '', name = '' } = formValues(event.currentTarget);
    try {
      await sendJson('PATCH', `/v1/customers/${customer.id}`, { email, name: name || null }, customerSchema);
      setError(null);
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: customerStateQuery(customer.id).queryKey });
    } catch (failure) {
      setSaved(false);
      setError((failure as Error).message);
    }
  }

  return (
    <Card title="Edit customer">
      <form onSubmit={onSubmit} className="inline-form" noValidate>
        <Field label="Customer email" name="email" type="email" defaultValue={customer.email} />
        <Field label="Customer name" name="name" required={false} defaultValue={customer.name ?? ''} />
        <button type="submit">Save customer</button>
      </form>
      <SuccessNote message={saved ? 'Saved.' : null} />
      <ErrorNote message={error} />
      <ConfirmButton
        label="Delete customer"
        question="Delete this customer? Their orders stay."
        onConfirm={async () => {
          await deleteResource(`/v1/customers/${customer.id}`);
          await navigate({ to: '/dashboard/customers' });
        }}
      />
    </Card>
  );
}
