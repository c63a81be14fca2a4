import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { BENEFIT_TYPES, benefitSchema, type BenefitType } from '../../../../../domain/benefits/schemas';
import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import { sendJson } from '../../../../api';
import { metersQuery } from '../../../../catalog/queries';
import { uploadFile, UPLOAD_WORDS } from '../../../../catalog/upload';
import { FormField, focusFirstInvalid } from '../../../../forms/form-field';
import { ErrorNote, formValues } from '../../../../components';
import { formErrorsInWords, NO_ERRORS, type FormErrors, type FormWords } from '../../../../forms/messages';
import { choiceWords, countWords, nameWords, textWords } from '../../../../forms/words';
import { TextField, type TextFieldProps } from '../../../../forms/text-field';
import { ResourceForm } from '../../../../resources/resource-page';
import { BENEFIT_TYPE_LABELS } from './benefit-labels';

/** The benefits API's limits (domain/benefits/schemas.ts). */
const LIMITS = {
  description: { min: 3, max: 42 },
  githubOwner: 39,
  githubRepository: 100,
  keyPrefix: 16,
  ttl: 1000,
  activations: 50,
  usage: 1_000_000_000,
  units: 2_147_483_647,
} as const;
const SNOWFLAKE_LENGTH = 20;

const BENEFIT_WORDS: FormWords = {
  description: nameWords('description', LIMITS.description),
  'properties.note': textWords(TEXT_MAX_LENGTH.description),
  'properties.guild_token': { other: 'Enter the Discord server ID: 17 to 20 digits.' },
  'properties.role_id': { other: 'Enter the Discord role ID: 17 to 20 digits.' },
  'properties.repository_owner': { other: 'Enter a GitHub user or organization name.' },
  'properties.repository_name': {
    other: 'Enter a GitHub repository name: letters, digits, dots, dashes or underscores.',
  },
  'properties.files': { too_small: 'Upload at least one file.', too_big: 'Attach at most 100 files.' },
  'properties.prefix': { other: 'A prefix is up to 16 letters, digits, dashes or underscores.' },
  'properties.expires.ttl': countWords('periods', { min: 1, max: LIMITS.ttl }),
  'properties.activations.limit': countWords('activations', { min: 1, max: LIMITS.activations }),
  'properties.limit_usage': countWords('uses', { min: 1, max: LIMITS.usage }),
  'properties.units': countWords('units', { min: 1, max: LIMITS.units }),
  'properties.meter_id': choiceWords('meter'),
};

/** A text or number field of the benefit form, showing the API's refusal of its `field`. */
function BenefitField({
  errors,
  ...props
}: Omit<TextFieldProps, 'error'> & { name: string; errors: FormErrors }) {
  return <TextField {...props} error={errors.fields[props.field]} />;
}

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
      const { fields, form } = formErrorsInWords(failure, UPLOAD_WORDS);
      setError(Object.values(fields)[0] ?? form);
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

function MeterSelect({ organizationId, errors }: { organizationId: string; errors: FormErrors }) {
  const meters = useQuery(metersQuery(organizationId));
  return (
    <FormField
      label="Meter"
      field="properties.meter_id"
      error={errors.fields['properties.meter_id']}
      required
      className="field"
    >
      {(control) => (
        <select {...control} name="meter_id" defaultValue="">
          <option value="">Choose a meter</option>
          {(meters.data?.items ?? []).map((meter) => (
            <option key={meter.id} value={meter.id}>
              {meter.name}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

function TypeFields({
  type,
  organizationId,
  errors,
}: {
  type: BenefitType;
  organizationId: string;
  errors: FormErrors;
}) {
  switch (type) {
    case 'custom':
      return (
        <BenefitField
          label="Note for customers"
          name="note"
          field="properties.note"
          errors={errors}
          maxLength={TEXT_MAX_LENGTH.description}
        />
      );
    case 'discord':
      return (
        <>
          <BenefitField
            label="Discord server ID"
            name="guild_token"
            field="properties.guild_token"
            errors={errors}
            required
            inputMode="numeric"
            maxLength={SNOWFLAKE_LENGTH}
          />
          <BenefitField
            label="Discord role ID"
            name="role_id"
            field="properties.role_id"
            errors={errors}
            required
            inputMode="numeric"
            maxLength={SNOWFLAKE_LENGTH}
          />
        </>
      );
    case 'github_repository':
      return (
        <>
          <BenefitField
            label="Repository owner"
            name="repository_owner"
            field="properties.repository_owner"
            errors={errors}
            required
            maxLength={LIMITS.githubOwner}
          />
          <BenefitField
            label="Repository name"
            name="repository_name"
            field="properties.repository_name"
            errors={errors}
            required
            maxLength={LIMITS.githubRepository}
          />
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
      return (
        <>
          <DownloadablesPicker organizationId={organizationId} />
          {errors.fields['properties.files'] ? (
            <p className="field-error">{errors.fields['properties.files']}</p>
          ) : null}
        </>
      );
    case 'license_keys':
      return (
        <>
          <BenefitField
            label="Key prefix"
            name="prefix"
            field="properties.prefix"
            errors={errors}
            maxLength={LIMITS.keyPrefix}
          />
          <BenefitField
            label="Expires after"
            name="ttl"
            field="properties.expires.ttl"
            errors={errors}
            type="number"
          />
          <label className="field">
            <span>Expiry unit</span>
            <select name="timeframe" aria-label="Expiry unit" defaultValue="year">
              {['day', 'month', 'year'].map((timeframe) => (
                <option key={timeframe}>{timeframe}</option>
              ))}
            </select>
          </label>
          <BenefitField
            label="Activation limit"
            name="activation_limit"
            field="properties.activations.limit"
            errors={errors}
            type="number"
          />
          <label className="checkbox">
            <input type="checkbox" name="enable_customer_admin" /> Customers manage activations
          </label>
          <BenefitField
            label="Usage limit"
            name="limit_usage"
            field="properties.limit_usage"
            errors={errors}
            type="number"
          />
        </>
      );
    case 'meter_credit':
      return (
        <>
          <BenefitField
            label="Units"
            name="units"
            field="properties.units"
            errors={errors}
            required
            type="number"
          />
          <MeterSelect organizationId={organizationId} errors={errors} />
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
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
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
      setErrors(NO_ERRORS);
      form.reset();
      setCreated(created + 1);
      await queryClient.invalidateQueries({ queryKey: ['benefits', organizationId] });
    } catch (failure) {
      setErrors(formErrorsInWords(failure, BENEFIT_WORDS));
      requestAnimationFrame(() => focusFirstInvalid(form));
    }
  }
  return (
    <ResourceForm title="Create a benefit" onSubmit={onSubmit} error={errors.form} layout="stacked-form">
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
      <BenefitField
        label="Description"
        name="description"
        field="description"
        errors={errors}
        required
        maxLength={LIMITS.description.max}
      />
      <TypeFields key={created} type={type} organizationId={organizationId} errors={errors} />
      <button type="submit">Create benefit</button>
    </ResourceForm>
  );
}
