import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { TestClock } from '../../../../../domain/test-clocks/schemas';
import { FormField } from '../../../../forms/form-field';
import { Card, ErrorNote } from '../../../../components';
import { customersQuery } from '../../../../customers/queries';
import { attachTestClockCustomer, testClockQuery } from '../../../../test-clocks/queries';
import { formErrorsInWords, type FormWords } from '../../../../forms/messages';

const WORDS: FormWords = {
  customer_id: { invalid_format: 'Choose a customer.', invalid_type: 'Choose a customer.' },
};
type Errors = { fields: Record<string, string>; form: string | null };
const NO_ERRORS: Errors = { fields: {}, form: null };

/** Puts one of the organization's customers (one without subscriptions) on the clock. */
export function TestClockAttachForm({ clock }: { clock: TestClock }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [customerId, setCustomerId] = useState('');
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [isBusy, setBusy] = useState(false);
  const customers = useQuery(customersQuery(clock.organization_id, search, 1));
  const choices = (customers.data?.items ?? []).filter(
    (customer) => !clock.customer_ids.includes(customer.id),
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!customerId) {
      setErrors({ fields: { customer_id: 'Choose a customer.' }, form: null });
      return;
    }
    setBusy(true);
    try {
      const updated = await attachTestClockCustomer(clock.id, customerId);
      queryClient.setQueryData(testClockQuery(clock.id).queryKey, updated);
      setCustomerId('');
      setErrors(NO_ERRORS);
      await queryClient.invalidateQueries({ queryKey: ['test-clocks', clock.organization_id] });
    } catch (failure) {
      setErrors(formErrorsInWords(failure, WORDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Attach a customer">
      <p className="muted">
        Only a customer without subscriptions can join a clock; the plans they buy from then on follow its
        time.
      </p>
      <form className="stack" onSubmit={(event) => void onSubmit(event)} noValidate>
        <label className="field">
          <span>Find a customer</span>
          <input
            type="search"
            value={search}
            placeholder="Email, name or external ID"
            onChange={(event) => {
              setSearch(event.target.value);
              setCustomerId('');
            }}
          />
        </label>
        <FormField label="Customer" field="customer_id" required error={errors.fields.customer_id}>
          {(control) => (
            <select
              {...control}
              value={customerId}
              onChange={(event) => {
                setCustomerId(event.target.value);
                setErrors(NO_ERRORS);
              }}
            >
              <option value="">{choices.length === 0 ? 'No customer found' : 'Choose a customer'}</option>
              {choices.map((customer) => (
                <option key={customer.id} value={customer.id}>
                  {customer.email}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <ErrorNote message={errors.form ?? customers.error?.message ?? null} />
        <div className="button-row">
          <button type="submit" disabled={isBusy}>
            {isBusy ? 'Attaching…' : 'Attach customer'}
          </button>
        </div>
      </form>
    </Card>
  );
}
