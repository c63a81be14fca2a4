import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import {
  BENEFIT_TYPES,
  benefitSchema,
  type Benefit,
  type BenefitType,
} from '../../../../domain/benefits/schemas';
import { deleteResource, sendJson } from '../../../api';
import { authClient } from '../../../auth/client';
import { Card, ConfirmButton, ErrorNote, Field, formValues } from '../../../components';
import { benefitsQuery, metersQuery } from '../../../catalog/queries';
import { uploadFile } from '../../../catalog/upload';

export const Route = createFileRoute('/_authenticated/dashboard/benefits')({ component: BenefitsPage });

const TYPE_LABELS: Record<BenefitType, string> = {
  custom: 'Custom',
  discord: 'Discord role',
  github_repository: 'GitHub repository access',
  downloadables: 'File downloads',
  license_keys: 'License keys',
  meter_credit: 'Meter credits',
};

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

function CreateBenefit({ organizationId }: { organizationId: string }) {
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
    <Card title="Create a benefit">
      <form onSubmit={onSubmit} className="stacked-form" noValidate>
        <label className="field">
          <span>Benefit type</span>
          <select
            aria-label="Benefit type"
            value={type}
            onChange={(event) => setType(event.target.value as BenefitType)}
          >
            {BENEFIT_TYPES.map((value) => (
              <option key={value} value={value}>
                {TYPE_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <Field label="Description" name="description" />
        <TypeFields key={created} type={type} organizationId={organizationId} />
        <button type="submit">Create benefit</button>
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function describe(benefit: Benefit): string {
  const properties = benefit.properties as Record<string, unknown>;
  switch (benefit.type) {
    case 'discord':
      return `role ${String(properties.role_id)} on server ${String(properties.guild_id)}`;
    case 'github_repository':
      return `${String(properties.repository_owner)}/${String(properties.repository_name)} (${String(properties.permission)})`;
    case 'downloadables':
      return `${(properties.files as string[]).length} file(s)`;
    case 'meter_credit':
      return `${String(properties.units)} units`;
    default:
      return '';
  }
}

function BenefitsPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const benefits = useQuery({ ...benefitsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
  if (!organizationId) return <p>Choose an organization to see its benefits.</p>;
  return (
    <>
      <CreateBenefit organizationId={organizationId} />
      <Card title="Benefits">
        <ErrorNote message={benefits.error?.message ?? error} />
        <ul className="plain-list">
          {(benefits.data?.items ?? []).map((benefit) => (
            <li key={benefit.id} data-testid="benefit-row">
              <strong>{benefit.description}</strong> · {TYPE_LABELS[benefit.type as BenefitType]}{' '}
              {describe(benefit)}{' '}
              {benefit.deletable ? (
                <ConfirmButton
                  label={`Delete ${benefit.description}`}
                  text="Delete"
                  question="Delete this benefit?"
                  onConfirm={async () => {
                    await deleteResource(`/v1/benefits/${benefit.id}`).catch((failure: Error) =>
                      setError(failure.message),
                    );
                    await queryClient.invalidateQueries({ queryKey: ['benefits', organizationId] });
                  }}
                />
              ) : null}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
