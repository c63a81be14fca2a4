import { useState, type FormEvent } from 'react';
import {
  prorationBehaviorSchema,
  socialPlatformSchema,
  type Organization,
  type SocialLink,
} from '../../domain/organizations/schemas';
import { ErrorNote } from '../components';

type Platform = SocialLink['platform'];
type ProrationBehavior = Organization['subscription_settings']['proration_behavior'];

const PLATFORM_LABELS: Partial<Record<string, string>> = {
  x: 'X',
  github: 'GitHub',
  facebook: 'Facebook',
  instagram: 'Instagram',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  linkedin: 'LinkedIn',
  discord: 'Discord',
  other: 'Other',
};

const PRORATION_LABELS: Record<ProrationBehavior, string> = {
  invoice: 'Invoice the difference at once',
  prorate: 'Prorate on the next invoice',
};

export type ProfileDraft = {
  name: string;
  slug: string;
  avatar_url: string;
  email: string;
  website: string;
  socials: { platform: Platform; url: string }[];
  issue_funding_enabled: boolean;
  usage_based_billing_enabled: boolean;
  allow_multiple_subscriptions: boolean;
  allow_customer_updates: boolean;
  proration_behavior: ProrationBehavior;
};

function toDraft(profile: Organization): ProfileDraft {
  return {
    name: profile.name,
    slug: profile.slug,
    avatar_url: profile.avatar_url ?? '',
    email: profile.email ?? '',
    website: profile.website ?? '',
    socials: profile.socials,
    issue_funding_enabled: profile.feature_settings?.issue_funding_enabled ?? false,
    usage_based_billing_enabled: profile.feature_settings?.usage_based_billing_enabled ?? false,
    ...profile.subscription_settings,
  };
}

/**
 * The seller profile as an editable form. The browser's own validation is off (`noValidate`): the
 * API validates, and its 422 messages are the ones people see.
 */
export function ProfileForm(props: {
  profile: Organization;
  disabled: boolean;
  onSave: (draft: ProfileDraft) => Promise<void>;
}) {
  const [draft, setDraft] = useState(() => toDraft(props.profile));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof ProfileDraft>(key: K, value: ProfileDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const setSocial = (index: number, change: Partial<SocialLink>) =>
    set(
      'socials',
      draft.socials.map((link, at) => (at === index ? { ...link, ...change } : link)),
    );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    await props.onSave(draft).catch((failure: unknown) => {
      setError(failure instanceof Error ? failure.message : String(failure));
    });
    setBusy(false);
  }

  const text = (label: string, key: 'name' | 'slug' | 'avatar_url' | 'email' | 'website', type = 'text') => (
    <label className="field">
      <span>{label}</span>
      <input type={type} value={draft[key]} onChange={(event) => set(key, event.target.value)} />
    </label>
  );
  const checkbox = (
    label: string,
    key:
      | 'issue_funding_enabled'
      | 'usage_based_billing_enabled'
      | 'allow_multiple_subscriptions'
      | 'allow_customer_updates',
  ) => (
    <label className="checkbox">
      <input type="checkbox" checked={draft[key]} onChange={(event) => set(key, event.target.checked)} />
      {label}
    </label>
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <fieldset disabled={props.disabled || busy} className="stack plain-fieldset">
        {text('Name', 'name')}
        {text('Slug', 'slug')}
        {text('Avatar URL', 'avatar_url', 'url')}
        {text('Support email', 'email', 'email')}
        {text('Website', 'website', 'url')}

        <fieldset className="stack">
          <legend>Social links</legend>
          {draft.socials.map((link, index) => (
            <div key={index} className="inline-form" data-testid="social-link">
              <label className="field">
                <span>Platform {index + 1}</span>
                <select
                  aria-label={`Platform ${index + 1}`}
                  value={link.platform}
                  onChange={(event) => setSocial(index, { platform: event.target.value as Platform })}
                >
                  {socialPlatformSchema.options.map((platform) => (
                    <option key={platform} value={platform}>
                      {PLATFORM_LABELS[platform] ?? platform}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Link {index + 1}</span>
                <input
                  type="url"
                  value={link.url}
                  onChange={(event) => setSocial(index, { url: event.target.value })}
                />
              </label>
              <button
                type="button"
                className="secondary"
                aria-label={`Remove link ${index + 1}`}
                onClick={() =>
                  set(
                    'socials',
                    draft.socials.filter((_link, at) => at !== index),
                  )
                }
              >
                Remove
              </button>
            </div>
          ))}
          <div>
            <button
              type="button"
              className="secondary"
              onClick={() => set('socials', [...draft.socials, { platform: 'x', url: '' }])}
            >
              Add social link
            </button>
          </div>
        </fieldset>

        <fieldset className="stack">
          <legend>Features</legend>
          {checkbox('Issue funding', 'issue_funding_enabled')}
          {checkbox('Usage-based billing', 'usage_based_billing_enabled')}
        </fieldset>

        <fieldset className="stack">
          <legend>Subscriptions</legend>
          {checkbox('Customers may hold several subscriptions', 'allow_multiple_subscriptions')}
          {checkbox('Customers may change their subscription', 'allow_customer_updates')}
          <label className="field">
            <span>When a subscription changes</span>
            <select
              aria-label="When a subscription changes"
              value={draft.proration_behavior}
              onChange={(event) => set('proration_behavior', event.target.value as ProrationBehavior)}
            >
              {prorationBehaviorSchema.options.map((behavior) => (
                <option key={behavior} value={behavior}>
                  {PRORATION_LABELS[behavior]}
                </option>
              ))}
            </select>
          </label>
        </fieldset>

        <ErrorNote message={error} />
        <div>
          <button type="submit">Save settings</button>
        </div>
      </fieldset>
    </form>
  );
}
