import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { customerSchema } from '../../../../../domain/customers/schemas';
import { sendJson } from '../../../../api';
import { focusFirstInvalid } from '../../../../forms/form-field';
import { formValues } from '../../../../components';
import { formErrorsInWords, NO_ERRORS, type FormErrors } from '../../../../forms/messages';
import { ResourceForm } from '../../../../resources/resource-page';
import { CUSTOMER_WORDS, CustomerField } from './customer-fields';

export function CustomerForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
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
      setErrors(NO_ERRORS);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: ['customers', organizationId] });
    } catch (failure) {
      setErrors(formErrorsInWords(failure, CUSTOMER_WORDS));
      requestAnimationFrame(() => focusFirstInvalid(form));
    }
  }
  return (
    <ResourceForm title="Add a customer" onSubmit={onSubmit} error={errors.form} layout="inline-form">
      <CustomerField field="email" label="Customer email" errors={errors} required />
      <CustomerField field="name" label="Customer name" errors={errors} />
      <CustomerField field="external_id" label="External ID" errors={errors} />
      <button type="submit">Add customer</button>
    </ResourceForm>
  );
}
