import { useState, type FormEvent } from 'react';
import {
  prorationBehaviorSchema,
  socialPlatformSchema,
  type Organization,
  type SocialLink,
} from '../../domain/organizations/schemas';
import { AddressFields, toAddressDraft, type AddressDraft } from '../addresses/address-fields';
import { FormField, focusFirstInvalid } from '../forms/form-field';
import { ErrorNote } from '../components';
import { NO_ERRORS, type FormErrors } from '../forms/messages';
import { EMAIL_MAX_LENGTH, ORGANIZATION_NAME_MAX_LENGTH, SLUG_MAX_LENGTH, URL_MAX_LENGTH } from './words';

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
  next_period: 'Change plans at the end of the period',
  reset: 'Restart the period at the change, billed in full (needs resetting turned on)',
};

export type ProfileDraft = {
  name: string;
  slug: string;
  avatar_url: string;
  email: string;
  website: string;
  time_zone: string;
  address: AddressDraft;
  socials: { platform: Platform; url: string }[];
  issue_funding_enabled: boolean;
  usage_based_billing_enabled: boolean;
  allow_multiple_subscriptions: boolean;
  allow_customer_updates: boolean;
  proration_behavior: ProrationBehavior;
  prevent_trial_abuse: boolean;
  /** Polar's `customer_portal_settings.subscription.pause`: buyers may pause and resume in the portal. */
  customer_portal_pause: boolean;
};

function toDraft(profile: Organization): ProfileDraft {
  return {
    name: profile.name,
    slug: profile.slug,
    avatar_url: profile.avatar_url ?? '',
    email: profile.email ?? '',
    website: profile.website ?? '',
    time_zone: profile.time_zone,
    address: toAddressDraft(profile.address),
    socials: profile.socials,
    issue_funding_enabled: profile.feature_settings?.issue_funding_enabled ?? false,
    usage_based_billing_enabled: profile.feature_settings?.usage_based_billing_enabled ?? false,
    ...profile.subscription_settings,
    customer_portal_pause: profile.customer_portal_settings.subscription.pause,
  };
}

/**
 * The IANA zones this browser knows, UTC first, and the organization's own even when the browser's
 * list lacks it (the server accepts what PostgreSQL and its own Intl know).
 */
function timeZoneChoices(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC');
  return ['UTC', ...(current === 'UTC' || known.includes(current) ? [] : [current]), ...known];
}

type TextKey = 'name' | 'slug' | 'avatar_url' | 'email' | 'website';

const MAX_LENGTHS: Record<TextKey, number> = {
  name: ORGANIZATION_NAME_MAX_LENGTH,
  slug: SLUG_MAX_LENGTH,
  avatar_url: URL_MAX_LENGTH,
  email: EMAIL_MAX_LENGTH,
  website: URL_MAX_LENGTH,
};

/**
 * The seller profile as an editable form. The browser's own validation is off (`noValidate`): the
 * API validates, and `onSave` answers with its refusals in the form's words, each next to its field.
 */
export function ProfileForm(props: {
  profile: Organization;
  disabled: boolean;
  onSave: (draft: ProfileDraft) => Promise<FormErrors | null>;
}) {
  const [draft, setDraft] = useState(() => toDraft(props.profile));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
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
    const form = event.currentTarget;
    if (!draft.name.trim()) {
      setErrors({ fields: { name: 'Enter a name.' }, form: null });
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    const refused = await props.onSave(draft).catch((failure: unknown): FormErrors => ({
      fields: {},
      form: failure instanceof Error ? failure.message : String(failure),
    }));
    setBusy(false);
    if (refused) {
      setErrors(refused);
      requestAnimationFrame(() => focusFirstInvalid(form));
    }
  }

  const text = (label: string, key: TextKey, type = 'text') => (
    <FormField label={label} field={key} error={errors.fields[key]} markOptional={false} className="field">
      {(control) => (
        <input
          {...control}
          type={type}
          maxLength={MAX_LENGTHS[key]}
          value={draft[key]}
          onChange={(event) => set(key, event.target.value)}
        />
      )}
    </FormField>
  );
  const checkbox = (
    label: string,
    key:
      | 'issue_funding_enabled'
      | 'usage_based_billing_enabled'
      | 'allow_multiple_subscriptions'
      | 'allow_customer_updates'
      | 'prevent_trial_abuse'
      | 'customer_portal_pause',
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
        <FormField
          label="Time zone"
          field="time_zone"
          hint="The dashboard, your emails and your invoices show days and times in it."
          error={errors.fields.time_zone}
          markOptional={false}
          className="field"
        >
          {(control) => (
            <select
              {...control}
              value={draft.time_zone}
              onChange={(event) => set('time_zone', event.target.value)}
            >
              {timeZoneChoices(draft.time_zone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
          )}
        </FormField>

        <fieldset className="stack">
          <legend>Postal address</legend>
          <p className="field-hint">Printed with the support email in the seller block of every invoice.</p>
          <AddressFields
            prefix="address"
            value={draft.address}
            onChange={(address) => set('address', address)}
            errors={errors.fields}
          />
        </fieldset>

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
              <FormField
                label={`Link ${index + 1}`}
                field={`socials.${index}.url`}
                error={errors.fields[`socials.${index}.url`]}
                markOptional={false}
                className="field"
              >
                {(control) => (
                  <input
                    {...control}
                    type="url"
                    maxLength={URL_MAX_LENGTH}
                    value={link.url}
                    onChange={(event) => setSocial(index, { url: event.target.value })}
                  />
                )}
              </FormField>
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
          {checkbox('One free trial per customer and per card', 'prevent_trial_abuse')}
          {checkbox(
            'Customers may pause and resume their subscription in the portal',
            'customer_portal_pause',
          )}
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

        <ErrorNote message={errors.form} />
        <div>
          <button type="submit">Save settings</button>
        </div>
      </fieldset>
    </form>
  );
}
