import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { useSession } from '../auth/session';
import { FormField } from '../forms/form-field';
import { Card, ErrorNote, formatDateTime, formValues, SuccessNote, Truncated } from '../components';
import { authErrorsInWords, NO_ERRORS, type FormErrors, type FormWords } from '../forms/messages';
import { EMAIL_WORDS } from '../forms/words';
import { assignableRoles, ROLE_LABELS, type OrganizationRole } from './roles';
import type { ActiveOrganization } from './types';

/** SMTP's longest address (RFC 5321), as the API's email fields take. */
const EMAIL_MAX_LENGTH = 320;

const INVITE_WORDS: FormWords = {
  email: EMAIL_WORDS,
  role: { other: 'Choose a role.' },
};

const INVITE_CODES = {
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: {
    field: 'email',
    message: 'This person already has a pending invitation. Use “Resend” below to send it again.',
  },
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: {
    field: 'email',
    message: 'This person is already a member.',
  },
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: {
    field: 'role',
    message: 'Only owners can invite owners.',
  },
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: {
    field: null,
    message: 'The organization has as many members as it may have.',
  },
  INVITATION_LIMIT_REACHED: {
    field: null,
    message: 'The organization has as many pending invitations as it may have.',
  },
};

export function InvitationsCard({ organization }: { organization: ActiveOrganization }) {
  const userId = useSession().data?.user.id;
  const myRole = organization.members.find((member) => member.userId === userId)?.role;
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [error, setError] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { email = '', role = 'member' } = formValues(form);
    if (!email.trim())
      return setErrors({ fields: { email: 'Enter the email address to invite.' }, form: null });
    const result = await authClient.organization.inviteMember({
      email: email.trim(),
      role: role as OrganizationRole,
      organizationId: organization.id,
    });
    if (result.error) return setErrors(authErrorsInWords(result.error, INVITE_WORDS, INVITE_CODES));
    setErrors(NO_ERRORS);
    form.reset();
  }

  async function cancel(invitationId: string) {
    const result = await authClient.organization.cancelInvitation({ invitationId });
    setError(errorMessage(result.error));
  }

  // Sends the email again and gives the invitation a fresh expiry (Better Auth's `resend`).
  async function resend(invitation: { id: string; email: string; role: string }) {
    const result = await authClient.organization.inviteMember({
      email: invitation.email,
      role: invitation.role as OrganizationRole,
      organizationId: organization.id,
      resend: true,
    });
    setError(errorMessage(result.error));
    setResent(result.error ? null : invitation.email);
  }

  const pending = organization.invitations.filter((invitation) => invitation.status === 'pending');
  return (
    <Card title="Invitations">
      <form onSubmit={(event) => void invite(event)} className="inline-form" noValidate>
        <FormField
          label="Email to invite"
          field="email"
          error={errors.fields.email}
          required
          className="field"
        >
          {(control) => (
            <input {...control} name="email" type="email" autoComplete="off" maxLength={EMAIL_MAX_LENGTH} />
          )}
        </FormField>
        <FormField label="Role" field="role" error={errors.fields.role} required className="field">
          {(control) => (
            <select {...control} name="role" defaultValue="member">
              {assignableRoles(myRole).map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <button type="submit">Send invitation</button>
      </form>
      <ErrorNote message={errors.form ?? error} />
      <SuccessNote message={resent ? `We sent the invitation to ${resent} again.` : null} />
      <ul className="plain-list">
        {pending.map((invitation) => (
          <li key={invitation.id} data-testid="pending-invitation">
            <Truncated text={invitation.email} /> ({invitation.role}) — expires{' '}
            {formatDateTime(invitation.expiresAt)}{' '}
            <button type="button" className="link-button" onClick={() => void resend(invitation)}>
              Resend
            </button>{' '}
            <button type="button" className="link-button" onClick={() => void cancel(invitation.id)}>
              Cancel
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
