import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import { orderSchema, type Order } from '../../../../../domain/orders/schemas';
import {
  AddressFields,
  addressWords,
  fromAddressDraft,
  toAddressDraft,
} from '../../../../addresses/address-fields';
import { sendJson } from '../../../../api';
import { FormField } from '../../../../forms/form-field';
import { Card, ErrorNote, SuccessNote } from '../../../../components';
import { formErrorsInWords, NO_ERRORS, type FormErrors, type FormWords } from '../../../../forms/messages';
import { textWords } from '../../../../forms/words';
import { orderQuery } from '../../../../orders/queries';

const BILLING_NAME_MAX_LENGTH = TEXT_MAX_LENGTH.name;

const ORDER_BILLING_WORDS: FormWords = {
  billing_name: textWords(BILLING_NAME_MAX_LENGTH),
  billing_address: { other: 'Check the address.' },
  ...addressWords('billing_address'),
};

/** The billing name and address an order's invoice prints, as the seller corrects them. */
export function OrderBillingForm({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(order.billing_name ?? '');
  const [address, setAddress] = useState(() => toAddressDraft(order.billing_address));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [isSaved, setSaved] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    try {
      const updated = await sendJson(
        'PATCH',
        `/v1/orders/${order.id}`,
        { billing_name: name.trim() || null, billing_address: fromAddressDraft(address) },
        orderSchema,
      );
      queryClient.setQueryData(orderQuery(order.id).queryKey, updated);
      setErrors(NO_ERRORS);
      setSaved(true);
    } catch (failure) {
      setSaved(false);
      setErrors(formErrorsInWords(failure, ORDER_BILLING_WORDS));
    }
  }

  return (
    <Card title="Billing details">
      <form onSubmit={(event) => void onSubmit(event)} className="stacked-form stack" noValidate>
        <FormField
          label="Billing name"
          field="billing_name"
          error={errors.fields.billing_name}
          markOptional={false}
          className="field"
        >
          {(control) => (
            <input
              {...control}
              autoComplete="name"
              maxLength={BILLING_NAME_MAX_LENGTH}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </FormField>
        <AddressFields
          prefix="billing_address"
          value={address}
          onChange={setAddress}
          errors={errors.fields}
        />
        <div>
          <button type="submit">Save billing details</button>
        </div>
      </form>
      <SuccessNote message={isSaved ? 'Billing details saved.' : null} />
      <ErrorNote message={errors.form} />
    </Card>
  );
}
