import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { subdivisionLabel, subdivisionsOf } from '../../domain/addresses/rules';
import {
  customerPortalCustomerSchema,
  type CustomerPortalCustomer,
} from '../../domain/customer-portal/schemas';
import { TEXT_MAX_LENGTH } from '../../domain/platform/schemas';
import { addressWords } from '../addresses/address-fields';
import { ApiError } from '../api';
import { listCountries } from '../addresses/countries';
import { focusFirstInvalid, FormField } from '../forms/form-field';
import { ErrorNote, SuccessNote } from '../components';
import { formErrorsInWords, type FormWords } from '../forms/messages';
import { textWords } from '../forms/words';
import { portalCall } from './api';
import { portalMeQuery } from './queries';

const ADDRESS_FIELDS = ['line1', 'line2', 'postal_code', 'city', 'state'] as const;
type AddressField = (typeof ADDRESS_FIELDS)[number];
/** The portal's limits (domain/customer-portal/schemas.ts, domain/addresses/schemas.ts). */
const MAX_LENGTHS = { name: TEXT_MAX_LENGTH.name, tax_id: 64, state: 64 } as const;
const ADDRESS_MAX_LENGTHS: Record<Exclude<AddressField, 'state'>, number> = {
  line1: 255,
  line2: 255,
  postal_code: 32,
  city: 255,
};

/** What the buyer reads when the API refuses a field, in place of the schema's texts. */
const BILLING_WORDS: FormWords = {
  name: textWords(MAX_LENGTHS.name),
  tax_id: {
    ...textWords(MAX_LENGTHS.tax_id),
    value_error: 'This is not a tax number of your billing country. Check it, or leave it empty.',
  },
  billing_address: { other: 'Check your billing address.' },
  ...addressWords('billing_address'),
};

type Values = {
  name: string;
  country: string;
  tax_id: string;
} & Record<AddressField, string>;

function initialValues(customer: CustomerPortalCustomer): Values {
  const address = customer.billing_address;
  const country = address?.country ?? '';
  const state = address?.state ?? '';
  return {
    name: customer.name ?? '',
    country,
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postal_code: address?.postal_code ?? '',
    city: address?.city ?? '',
    // US and Canadian states travel as "US-CA"; the select lists the bare codes.
    state: subdivisionsOf(country) ? state.replace(new RegExp(`^${country}-`, 'i'), '') : state,
    tax_id: customer.tax_id?.[0] ?? '',
  };
}

const ADDRESS_LABELS: Record<Exclude<AddressField, 'state'>, [string, string]> = {
  line1: ['Address', 'address-line1'],
  line2: ['Apartment, suite, etc.', 'address-line2'],
  postal_code: ['Postal code', 'postal-code'],
  city: ['City', 'address-level2'],
};

/**
 * The buyer's name, billing address and tax number, as their invoices will print them. Their email
 * address changes apart (`EmailAddressSection`): the new one must be confirmed first.
 */
export function BillingDetailsForm({ slug, customer }: { slug: string; customer: CustomerPortalCustomer }) {
  const queryClient = useQueryClient();
  const countries = useMemo(() => listCountries(), []);
  const [values, setValues] = useState(() => initialValues(customer));
  const [errors, setErrors] = useState<{ fields: Record<string, string>; form: string | null }>({
    fields: {},
    form: null,
  });
  const [isBusy, setBusy] = useState(false);
  const [isSaved, setSaved] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const subdivisions = subdivisionsOf(values.country);

  const set = (key: keyof Values) => (value: string) => {
    setValues((current) => ({ ...current, [key]: value, ...(key === 'country' ? { state: '' } : {}) }));
    setSaved(false);
  };

  function fail(fields: Record<string, string>, message: string | null) {
    setErrors({ fields, form: message });
    requestAnimationFrame(() => focusFirstInvalid(form.current));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = (key: keyof Values) => values[key].trim();
    const local: Record<string, string> = {};
    const hasAddress = ADDRESS_FIELDS.some((field) => text(field) !== '');
    if (hasAddress && !values.country) local['billing_address.country'] = 'Choose your country.';
    if (Object.keys(local).length > 0) return fail(local, null);

    const state = text('state');
    setBusy(true);
    try {
      const updated = await portalCall(slug, 'PATCH', '/customers/me', customerPortalCustomerSchema, {
        name: text('name') || null,
        billing_address: values.country
          ? {
              country: values.country,
              line1: text('line1') || null,
              line2: text('line2') || null,
              postal_code: text('postal_code') || null,
              city: text('city') || null,
              state: state ? (subdivisions ? `${values.country}-${state}` : state) : null,
            }
          : null,
        tax_id: text('tax_id').replace(/\s/g, '') || null,
      });
      queryClient.setQueryData(portalMeQuery(slug).queryKey, updated);
      setValues(initialValues(updated));
      setErrors({ fields: {}, form: null });
      setSaved(true);
    } catch (failure) {
      setSaved(false);
      if (failure instanceof ApiError) {
        const found = formErrorsInWords(failure, BILLING_WORDS);
        // An issue about the whole address (e.g. a missing state) belongs to its country field.
        const fields = { ...found.fields };
        if (fields.billing_address && !fields['billing_address.country']) {
          fields['billing_address.country'] = fields.billing_address;
        }
        fail(fields, found.form);
      } else {
        fail({}, 'We could not reach the server. Check your connection and try again.');
      }
    } finally {
      setBusy(false);
    }
  }

  const fieldError = (key: string) => errors.fields[key] ?? null;

  return (
    <form ref={form} className="stack portal-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <FormField label="Name" field="name" error={fieldError('name')} hint="As it should appear on invoices.">
        {(control) => (
          <input
            {...control}
            autoComplete="name"
            maxLength={MAX_LENGTHS.name}
            value={values.name}
            onChange={(event) => set('name')(event.target.value)}
          />
        )}
      </FormField>
      <fieldset className="plain-fieldset stack">
        <legend>Billing address</legend>
        <FormField
          label="Country"
          field="billing_address.country"
          error={fieldError('billing_address.country')}
        >
          {(control) => (
            <select
              {...control}
              autoComplete="country"
              value={values.country}
              onChange={(event) => set('country')(event.target.value)}
            >
              <option value="">No billing address</option>
              {countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {(['line1', 'line2', 'postal_code', 'city'] as const).map((field) => (
          <FormField
            key={field}
            label={ADDRESS_LABELS[field][0]}
            field={`billing_address.${field}`}
            error={fieldError(`billing_address.${field}`)}
          >
            {(control) => (
              <input
                {...control}
                autoComplete={ADDRESS_LABELS[field][1]}
                maxLength={ADDRESS_MAX_LENGTHS[field]}
                value={values[field]}
                onChange={(event) => set(field)(event.target.value)}
              />
            )}
          </FormField>
        ))}
        <FormField
          label={subdivisionLabel(values.country)}
          field="billing_address.state"
          required={subdivisions !== null}
          error={fieldError('billing_address.state')}
        >
          {(control) =>
            subdivisions ? (
              <select
                {...control}
                value={values.state}
                onChange={(event) => set('state')(event.target.value)}
              >
                <option value="">Choose your {subdivisionLabel(values.country).toLowerCase()}</option>
                {subdivisions.map((subdivision) => (
                  <option key={subdivision.code} value={subdivision.code}>
                    {subdivision.name}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...control}
                autoComplete="address-level1"
                maxLength={MAX_LENGTHS.state}
                value={values.state}
                onChange={(event) => set('state')(event.target.value)}
              />
            )
          }
        </FormField>
      </fieldset>
      <FormField
        label="Tax ID"
        field="tax_id"
        error={fieldError('tax_id')}
        hint="For business purchases: your VAT or tax number with its country prefix, e.g. DE123456789."
      >
        {(control) => (
          <input
            {...control}
            maxLength={MAX_LENGTHS.tax_id}
            value={values.tax_id}
            onChange={(event) => set('tax_id')(event.target.value)}
          />
        )}
      </FormField>
      <ErrorNote message={errors.form} />
      <SuccessNote message={isSaved ? 'Your billing details are saved.' : null} />
      <div className="button-row">
        <button type="submit" disabled={isBusy}>
          {isBusy ? 'Saving…' : 'Save billing details'}
        </button>
      </div>
    </form>
  );
}
