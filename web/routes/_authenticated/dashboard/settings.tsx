import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { organizationSchema } from '../../../../domain/organizations/schemas';
import { addressWords, fromAddressDraft } from '../../../addresses/address-fields';
import { sendJson } from '../../../api';
import { authClient, hasRole } from '../../../auth/client';
import { authErrorsInWords, formErrorsInWords, type FormErrors } from '../../../forms/messages';
import { Card, ErrorNote, SuccessNote } from '../../../components';
import { prefetch } from '../../../loaders';
import { NotificationSettingsCard } from '../../../organizations/notification-settings';
import { ProfileForm, type ProfileDraft } from '../../../organizations/profile-form';
import { organizationKeys, organizationProfileQuery } from '../../../organizations/queries';
import { canManage } from '../../../organizations/roles';
import type { ActiveOrganization } from '../../../organizations/types';
import { ORGANIZATION_CODES, ORGANIZATION_WORDS } from '../../../organizations/words';
import { DeleteOrganization } from './-components/delete-organization';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/settings')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, organizationProfileQuery(organizationId));
  },
  component: SettingsPage,
});

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

function SettingsPage() {
  return (
    <>
      <PageTitle title="Organization settings" />
      <SettingsPageContent />
    </>
  );
}

function SettingsPageContent() {
  const active = authClient.useActiveOrganization();
  const organizations = authClient.useListOrganizations();
  if (!active.data) return <p>Create or choose an organization to see its settings.</p>;
  return (
    <Settings
      organization={active.data}
      // The organization switcher shows the name from Better Auth's own view.
      onSaved={() => {
        organizations.refetch();
        active.refetch();
      }}
    />
  );
}

function Settings({ organization, onSaved }: { organization: ActiveOrganization; onSaved: () => void }) {
  const userId = Route.useRouteContext().session.user.id;
  const queryClient = useQueryClient();
  const profile = useQuery(organizationProfileQuery(organization.id));
  // A new time zone mounts the page anew (`DatesIn`): the note is kept with the queries instead.
  const savedKey = [...organizationKeys.all(organization.id), 'settings-saved'];
  const saved = useQuery({ queryKey: savedKey, queryFn: () => false, staleTime: Infinity }).data ?? false;
  const setSaved = (value: boolean) => queryClient.setQueryData(savedKey, value);
  const role = organization.members.find((member) => member.userId === userId)?.role;

  async function save(draft: ProfileDraft): Promise<FormErrors | null> {
    if (!profile.data) return null;
    setSaved(false);
    const updated = await sendJson(
      'PATCH',
      `/v1/organizations/${organization.id}`,
      {
        name: draft.name,
        avatar_url: orNull(draft.avatar_url),
        email: orNull(draft.email),
        website: orNull(draft.website),
        time_zone: draft.time_zone,
        address: fromAddressDraft(draft.address),
        socials: draft.socials,
        feature_settings: {
          issue_funding_enabled: draft.issue_funding_enabled,
          usage_based_billing_enabled: draft.usage_based_billing_enabled,
        },
        subscription_settings: {
          allow_multiple_subscriptions: draft.allow_multiple_subscriptions,
          allow_customer_updates: draft.allow_customer_updates,
          proration_behavior: draft.proration_behavior,
          prevent_trial_abuse: draft.prevent_trial_abuse,
        },
        // `update_plan` is the same setting as `allow_customer_updates` (sent alike, so they agree).
        customer_portal_settings: {
          subscription: {
            update_seats: false,
            update_plan: draft.allow_customer_updates,
            pause: draft.customer_portal_pause,
          },
        },
      },
      organizationSchema,
    ).catch((failure: unknown) =>
      formErrorsInWords(failure, { ...ORGANIZATION_WORDS, ...addressWords('address') }),
    );
    if (!('id' in updated)) return updated;
    queryClient.setQueryData(organizationKeys.profile(organization.id), updated);
    // The payments API does not change slugs (Polar's does not either); Better Auth does. It goes
    // second so that a refused slug leaves the rest saved and the form as typed.
    if (draft.slug !== updated.slug) {
      const result = await authClient.organization.update({
        organizationId: organization.id,
        data: { slug: draft.slug },
      });
      if (result.error) return authErrorsInWords(result.error, ORGANIZATION_WORDS, ORGANIZATION_CODES);
      await queryClient.invalidateQueries({ queryKey: organizationKeys.profile(organization.id) });
    }
    onSaved();
    setSaved(true);
    return null;
  }

  return (
    <>
      <Card title="Organization settings">
        <ErrorNote message={profile.error?.message ?? null} />
        {canManage(role) ? null : <p>Only owners and admins can change these settings.</p>}
        {profile.data ? (
          <ProfileForm
            key={profile.data.id}
            profile={profile.data}
            disabled={!canManage(role)}
            onSave={save}
          />
        ) : (
          <p>Loading…</p>
        )}
        <SuccessNote message={saved ? 'Settings saved.' : null} />
      </Card>
      <NotificationSettingsCard organizationId={organization.id} />
      {hasRole(role, 'owner') ? (
        <DeleteOrganization organizationId={organization.id} name={organization.name} />
      ) : null}
    </>
  );
}
