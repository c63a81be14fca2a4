import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { customerSchema } from '../../../../../domain/customers/schemas';
import type { CustomerState } from '../../../../../domain/customer-state/schemas';
import { deleteResource, sendJson } from '../../../../api';
import { Card, ConfirmButton, ErrorNote, formValues, SuccessNote } from '../../../../components';
import { customerStateQuery } from '../../../../customers/queries';
import { formErrorsInWords, NO_ERRORS, type FormErrors } from '../../../../forms/messages';
import { CUSTOMER_WORDS, CustomerField } from './customer-fields';

export function CustomerEditForm({ customer }: { customer: CustomerState }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [saved, setSaved] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { email = '', name = '' } = formValues(event.currentTarget);
    try {
      await sendJson('PATCH', `/v1/customers/${customer.id}`, { email, name: name || null }, customerSchema);
      setErrors(NO_ERRORS);
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: customerStateQuery(customer.id).queryKey });
    } catch (failure) {
      setSaved(false);
      setErrors(formErrorsInWords(failure, CUSTOMER_WORDS));
    }
  }

  return (
    <Card title="Edit customer">
      <form onSubmit={onSubmit} className="inline-form" noValidate>
        <CustomerField
          field="email"
          label="Customer email"
          errors={errors}
          required
          defaultValue={customer.email}
        />
        <CustomerField
          field="name"
          label="Customer name"
          errors={errors}
          defaultValue={customer.name ?? ''}
        />
        <button type="submit">Save customer</button>
      </form>
      <SuccessNote message={saved ? 'Saved.' : null} />
      <ErrorNote message={errors.form} />
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
