import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { BENEFIT_TYPES, benefitSchema, type BenefitType } from '../../../../../domain/benefits/schemas';
import { sendJson } from '../../../../api';
import { metersQuery } from '../../../../catalog/queries';
import { uploadFile } from '../../../../catalog/upload';
import { ErrorNote, Field, formValues } from '../../../../components';
import { ResourceForm } from '../../../../resources/resource-page';
import { BENEFIT_TYPE_LABELS } from './benefit-labels';

const optionalNumber = (value: string | undefined) => (value ? Number(value) : null);

/** The properties of the chosen type, from the form's fields (the API validates them). */
function propertiesFrom(type: BenefitType, values: Record<string, string>, form: HTMLFormElement) {
  const checked = (name: string) =>
    (form.elements.namedItem(name) as HTMLInputElement | null)?.checked ?? false;
  switch (type) {
    case 'custom':
      return { note: values.note || null };
    case 'discord':
      return { guild_token: values.guild_token, role_id: values.role_id };
    case 'github_repository':
      return {
        repository_owner: values.repository_owner,
        repository_name: values.repository_name,
        permission: values.permission,
      };
    case 'downloadables':
      return {
        files: (values.files ?? '')
          .split(/[\s,]+/)
          .map((id) => id.trim())
          .filter(Boolean),
      };
    case 'license_keys':
      return {
        prefix: values.prefix || null,
        expires: values.ttl ? { ttl: Number(values.ttl), timeframe: values.timeframe } : null,
        activations: values.activation_limit
          ? {
              limit: Number(values.activation_limit),
              enable_customer_admin: checked('enable_customer_admin'),
            }
          : null,
        limit_usage: optionalNumber(values.limit_usage),
      };
    case 'meter_credit':
      return { units: Number(values.units), rollover: checked('rollover'), meter_id: values.meter_id };
  }
}

/** Uploads downloadable files; their ids travel in the form as the comma-separated `files` field. */
function DownloadablesPicker({ organizationId }: { organizationId: string }) {
  const [files, setFiles] = useState<{ id: string; name: string }[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function upload(file: File) {
    setError(null);
    setProgress(0);
    try {
      const uploaded = await uploadFile(file, { organizationId, service: 'downloadable' }, setProgress);
      setFiles((current) => [...current, { id: uploaded.id, name: uploaded.name }]);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setProgress(null);
    }
  }
  return (
    <>
      <input type="hidden" name="files" value={files.map((file) => file.id).join(',')} />
      <ul className="plain-list">
        {files.map((file) => (
          <li key={file.id}>
            {file.name}{' '}
            <button
              type="button"
              className="secondary"
              onClick={() => setFiles(files.filter((other) => other.id !== file.id))}
            >
              {`Remove ${file.name}`}
            </button>
          </li>
        ))}
      </ul>
      <label className="field">
        <span>Add a file</span>
        <input
          type="file"
          disabled={progress !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload(file);
          }}
        />
      </label>
      {progress === null ? null : (
        <p>
          <progress aria-label="Upload progress" max={1} value={progress} /> {Math.round(progress * 100)}%
        </p>
      )}
      <ErrorNote message={error} />
    </>
  );
}

function MeterSelect({ organizationId }: { organizationId: string }) {
  const meters = useQuery(metersQuery(organizationId));
  return (
    <label className="field">
      <span>Meter</span>
      <select aria-label="Meter" name="meter_id" defaultValue="">
        <option value="">Choose a meter</option>
        {(meters.data?.items ?? []).map((meter) => (
          <option key={meter.id} value={meter.id}>
            {meter.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function TypeFields({ type, organizationId }: { type: BenefitType; organizationId: string }) {
  switch (type) {
    case 'custom':
      return <Field label="Note for customers" name="note" required={false} />;
    case 'discord':
      return (
        <>
          <Field label="Discord server ID" name="guild_token" inputMode="numeric" />
          <Field label="Discord role ID" name="role_id" inputMode="numeric" />
        </>
      );
    case 'github_repository':
      return (
        <>
          <Field label="Repository owner" name="repository_owner" />
          <Field label="Repository name" name="repository_name" />
          <label className="field">
            <span>Permission</span>
            <select name="permission" aria-label="Permission" defaultValue="pull">
              {['pull', 'triage', 'push', 'maintain', 'admin'].map((permission) => (
                <option key={permission}>{permission}</option>
              ))}
            </select>
          </label>
        </>
      );
    case 'downloadables':
      return <DownloadablesPicker organizationId={organizationId} />;
    case 'license_keys':
      return (
        <>
          <Field label="Key prefix" name="prefix" required={false} />
          <Field label="Expires after" name="ttl" type="number" required={false} />
          <label className="field">
            <span>Expiry unit</span>
            <select name="timeframe" aria-label="Expiry unit" defaultValue="year">
              {['day', 'month', 'year'].map((timeframe) => (
                <option key={timeframe}>{timeframe}</option>
              ))}
            </select>
          </label>
          <Field label="Activation limit" name="activation_limit" type="number" required={false} />
          <label className="checkbox">
            <input type="checkbox" name="enable_customer_admin" /> Customers manage activations
          </label>
          <Field label="Usage limit" name="limit_usage" type="number" required={false} />
        </>
      );
    case 'meter_credit':
      return (
        <>
          <Field label="Units" name="units" type="number" />
          <MeterSelect organizationId={organizationId} />
          <label className="checkbox">
            <input type="checkbox" name="rollover" /> Unused units roll over
          </label>
        </>
      );
  }
}

export function BenefitForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<BenefitType>('custom');
  const [error, setError] = useState<string | null>(null);
  // Remounts the type's fields after a creation, which empties the uploaded files too.
  const [created, setCreated] = useState(0);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    try {
      await sendJson(
        'POST',
        '/v1/benefits/',
        {
          organization_id: organizationId,
          type,
          description: values.description,
          properties: propertiesFrom(type, values, form),
        },
        benefitSchema,
      );
      setError(null);
      form.reset();
      setCreated(created + 1);
      await queryClient.invalidateQueries({ queryKey: ['benefits', organizationId] });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <ResourceForm title="Create a benefit" onSubmit={onSubmit} error={error} layout="stacked-form">
      <label className="field">
        <span>Benefit type</span>
        <select
          aria-label="Benefit type"
          value={type}
          onChange={(event) => setType(event.target.value as BenefitType)}
        >
          {BENEFIT_TYPES.map((value) => (
            <option key={value} value={value}>
              {BENEFIT_TYPE_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <Field label="Description" name="description" />
      <TypeFields key={created} type={type} organizationId={organizationId} />
      <button type="submit">Create benefit</button>
    </ResourceForm>
  );
}
