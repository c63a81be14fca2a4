import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../../../../auth/client';
import { Card, ErrorNote, Field, formValues } from '../../../../components';

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
}

export function CreateOrganizationForm() {
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { name = '', slug } = formValues(form);
    const result = await authClient.organization.create({ name, slug: slug || slugify(name) });
    if (result.error) return setError(errorMessage(result.error));
    setError(null);
    form.reset();
  }
  return (
    <Card title="Create an organization">
      <form onSubmit={onSubmit} className="inline-form">
        <Field label="Organization name" name="name" />
        <Field label="Slug (optional)" name="slug" required={false} />
        <button type="submit">Create organization</button>
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}
