import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { ACCESS_TOKEN_SCOPES, accessTokenSchema } from '../../../../../domain/access-tokens/schemas';
import { sendJson } from '../../../../api';
import { FormField } from '../../../../forms/form-field';
import { ErrorNote, formValues } from '../../../../components';
import { formErrorsInWords, NO_ERRORS, type FormErrors, type FormWords } from '../../../../forms/messages';
import { nameWords } from '../../../../forms/words';

/** The API's limit on a token's comment (domain/access-tokens/schemas.ts). */
const COMMENT_MAX_LENGTH = 255;

const TOKEN_WORDS: FormWords = {
  comment: nameWords('comment, such as what the token is for', { max: COMMENT_MAX_LENGTH }),
  expires_in: { other: 'Choose when the token expires.' },
  scopes: { other: 'Choose the scopes again: one of them is not known.' },
  'scopes.*': { other: 'Choose the scopes again: one of them is not known.' },
};

const createdTokenSchema = z.object({ organization_access_token: accessTokenSchema, token: z.string() });

const DAY_SECONDS = 24 * 60 * 60;
const EXPIRY_CHOICES = [
  { label: 'Never', seconds: null },
  { label: '7 days', seconds: 7 * DAY_SECONDS },
  { label: '30 days', seconds: 30 * DAY_SECONDS },
  { label: '90 days', seconds: 90 * DAY_SECONDS },
  { label: '1 year', seconds: 365 * DAY_SECONDS },
] as const;

const SCOPE_RESOURCES = [...new Set(ACCESS_TOKEN_SCOPES.map((scope) => scope.split(':')[0] ?? scope))];

/** The clear-text token, shown once: the API keeps only its hash. */
export function NewAccessToken({ token, onDone }: { token: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    setCopied(
      await navigator.clipboard.writeText(token).then(
        () => 'yes' as const,
        () => 'failed' as const,
      ),
    );
  }
  return (
    <div className="notice" role="region" aria-label="New access token">
      <p>Copy the token now: it is shown only once.</p>
      <code className="secret" data-testid="new-access-token">
        {token}
      </code>
      <div className="button-row">
        <button type="button" onClick={() => void copy()}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      {copied === 'failed' ? (
        <ErrorNote message="The browser did not allow copying; select the token instead." />
      ) : null}
    </div>
  );
}

export function AccessTokenForm({
  organizationId,
  onCreated,
}: {
  organizationId: string;
  onCreated: (token: string) => void;
}) {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const scopeError = Object.entries(errors.fields).find(([field]) => field.startsWith('scopes'))?.[1];
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { comment = '', expires = '' } = formValues(form);
    const scopes = new FormData(form).getAll('scopes').map(String);
    try {
      const created = await sendJson(
        'POST',
        '/v1/organization-access-tokens/',
        {
          organization_id: organizationId,
          comment,
          expires_in: expires === '' ? null : Number(expires),
          scopes,
        },
        createdTokenSchema,
      );
      setErrors(NO_ERRORS);
      form.reset();
      onCreated(created.token);
    } catch (failure) {
      setErrors(formErrorsInWords(failure, TOKEN_WORDS));
    }
  }
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="stack" noValidate>
      <div className="inline-form">
        <FormField label="Comment" field="comment" error={errors.fields.comment} required className="field">
          {(control) => <input {...control} name="comment" maxLength={COMMENT_MAX_LENGTH} />}
        </FormField>
        <label className="field">
          <span>Expires</span>
          <select name="expires" aria-label="Expires" defaultValue={String(30 * DAY_SECONDS)}>
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.label} value={choice.seconds ?? ''}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <details>
        <summary>Scopes</summary>
        <table className="scopes">
          <tbody>
            {SCOPE_RESOURCES.map((resource) => (
              <tr key={resource}>
                <th scope="row">{resource}</th>
                {(['read', 'write'] as const).map((access) => (
                  <td key={access}>
                    <label className="checkbox">
                      <input type="checkbox" name="scopes" value={`${resource}:${access}`} />
                      {access}
                    </label>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {scopeError ? <p className="field-error">{scopeError}</p> : null}
      {errors.fields.expires_in ? <p className="field-error">{errors.fields.expires_in}</p> : null}
      <ErrorNote message={errors.form} />
      <div>
        <button type="submit">Create token</button>
      </div>
    </form>
  );
}
