import { useState, type FormEvent } from 'react';
import { authClient } from '../../../../auth/client';
import { FormField } from '../../../../forms/form-field';
import { Card, ErrorNote, formValues } from '../../../../components';
import { authErrorsInWords, fieldErrors, NO_ERRORS, type FormErrors } from '../../../../forms/messages';
import {
  ORGANIZATION_WORDS,
  ORGANIZATION_CODES,
  SLUG_MAX_LENGTH,
  ORGANIZATION_NAME_MAX_LENGTH,
} from '../../../../organizations/words';

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
}

/** What is wrong before asking Better Auth, whose own answer for a blank name is about the slug. */
function typingErrors(name: string, slug: string): FormErrors | null {
  return fieldErrors({
    name: name.trim() ? null : 'Enter a name.',
    slug:
      name.trim() && !slug
        ? 'Enter a slug: the name has no letters or digits to make one from.'
        : slug && !SLUG_PATTERN.test(slug)
          ? 'A slug is lowercase letters, digits and hyphens, such as acme-tools.'
          : null,
  });
}

export function CreateOrganizationForm() {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const name = values.name ?? '';
    const slug = values.slug?.trim() || slugify(name);
    const typed = typingErrors(name, slug);
    if (typed) return setErrors(typed);
    const result = await authClient.organization.create({ name: name.trim(), slug });
    if (result.error)
      return setErrors(authErrorsInWords(result.error, ORGANIZATION_WORDS, ORGANIZATION_CODES));
    setErrors(NO_ERRORS);
    form.reset();
  }
  return (
    <Card title="Create an organization">
      <form onSubmit={(event) => void onSubmit(event)} className="inline-form" noValidate>
        <FormField
          label="Organization name"
          field="name"
          error={errors.fields.name}
          required
          className="field"
        >
          {(control) => <input {...control} name="name" maxLength={ORGANIZATION_NAME_MAX_LENGTH} />}
        </FormField>
        <FormField
          label="Slug (optional)"
          field="slug"
          error={errors.fields.slug}
          markOptional={false}
          className="field"
        >
          {(control) => <input {...control} name="slug" maxLength={SLUG_MAX_LENGTH} />}
        </FormField>
        <button type="submit">Create organization</button>
      </form>
      <ErrorNote message={errors.form} />
    </Card>
  );
}
