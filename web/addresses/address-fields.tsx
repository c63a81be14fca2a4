import { useMemo } from 'react';
import type { z } from 'zod';
import { subdivisionLabel, subdivisionsOf } from '../../domain/addresses/rules';
import type { addressSchema } from '../../domain/addresses/schemas';
import { listCountries } from './countries';
import { FormField } from '../forms/form-field';
import type { FormWords } from '../forms/messages';
import { textWords } from '../forms/words';

/** An address being typed: every part a string, the state without its country prefix. */
export type AddressDraft = {
  country: string;
  line1: string;
  line2: string;
  postal_code: string;
  city: string;
  state: string;
};

type Address = z.infer<typeof addressSchema>;

/** The address API's limits (domain/addresses/schemas.ts addressDraftSchema). */
const MAX_LENGTHS = { line1: 255, line2: 255, postal_code: 32, city: 255 } as const;

const TEXT_PARTS: { key: keyof typeof MAX_LENGTHS; label: string; autoComplete: string }[] = [
  { key: 'line1', label: 'Address line 1', autoComplete: 'address-line1' },
  { key: 'line2', label: 'Address line 2', autoComplete: 'address-line2' },
  { key: 'postal_code', label: 'Postal code', autoComplete: 'postal-code' },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
];

/** What an address's fields say when the API refuses them, keyed under `prefix` (e.g. `address`). */
export function addressWords(prefix: string): FormWords {
  return {
    [`${prefix}.country`]: { other: 'Choose a country.' },
    [`${prefix}.state`]: { other: 'Choose a state or province from the list.' },
    [`${prefix}.line1`]: textWords(MAX_LENGTHS.line1),
    [`${prefix}.line2`]: textWords(MAX_LENGTHS.line2),
    [`${prefix}.postal_code`]: textWords(MAX_LENGTHS.postal_code),
    [`${prefix}.city`]: textWords(MAX_LENGTHS.city),
  };
}

export function toAddressDraft(address: Address | null | undefined): AddressDraft {
  const country = address?.country ?? '';
  const state = address?.state ?? '';
  return {
    country,
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postal_code: address?.postal_code ?? '',
    city: address?.city ?? '',
    // US and Canadian states travel as "US-IL"; the list shows the bare codes.
    state: subdivisionsOf(country) ? state.replace(new RegExp(`^${country}-`, 'i'), '') : state,
  };
}

/** The draft as the API takes it: null without a country, empty parts as null. */
export function fromAddressDraft(draft: AddressDraft) {
  if (!draft.country) return null;
  const part = (value: string) => value.trim() || null;
  const state = part(draft.state);
  return {
    country: draft.country,
    line1: part(draft.line1),
    line2: part(draft.line2),
    postal_code: part(draft.postal_code),
    city: part(draft.city),
    state: state && subdivisionsOf(draft.country) ? `${draft.country}-${state}` : state,
  };
}

/**
 * A postal address's fields: a country list ("No address" first), the street, postal code and
 * city, and the state as a list where the country has one (US, Canada). Each error sits under its
 * field; `prefix` is the fields' path in the API's answer.
 */
export function AddressFields(props: {
  prefix: string;
  value: AddressDraft;
  onChange: (next: AddressDraft) => void;
  errors: Record<string, string>;
}) {
  const countries = useMemo(() => listCountries(), []);
  const { value } = props;
  const subdivisions = subdivisionsOf(value.country);
  const set = (key: keyof AddressDraft, next: string) =>
    props.onChange({ ...value, [key]: next, ...(key === 'country' ? { state: '' } : {}) });
  const errorOf = (key: keyof AddressDraft) => props.errors[`${props.prefix}.${key}`] ?? null;
  return (
    <>
      <FormField
        label="Country"
        field={`${props.prefix}.country`}
        error={errorOf('country')}
        markOptional={false}
        className="field"
      >
        {(control) => (
          <select
            {...control}
            autoComplete="country"
            value={value.country}
            onChange={(event) => set('country', event.target.value)}
          >
            <option value="">No address</option>
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {value.country ? (
        <>
          {TEXT_PARTS.map((part) => (
            <FormField
              key={part.key}
              label={part.label}
              field={`${props.prefix}.${part.key}`}
              error={errorOf(part.key)}
              markOptional={false}
              className="field"
            >
              {(control) => (
                <input
                  {...control}
                  autoComplete={part.autoComplete}
                  maxLength={MAX_LENGTHS[part.key]}
                  value={value[part.key]}
                  onChange={(event) => set(part.key, event.target.value)}
                />
              )}
            </FormField>
          ))}
          <FormField
            label={subdivisionLabel(value.country)}
            field={`${props.prefix}.state`}
            error={errorOf('state')}
            markOptional={false}
            className="field"
          >
            {(control) =>
              subdivisions ? (
                <select
                  {...control}
                  autoComplete="address-level1"
                  value={value.state}
                  onChange={(event) => set('state', event.target.value)}
                >
                  <option value="">Choose…</option>
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
                  maxLength={64}
                  value={value.state}
                  onChange={(event) => set('state', event.target.value)}
                />
              )
            }
          </FormField>
        </>
      ) : null}
    </>
  );
}
