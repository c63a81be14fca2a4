import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import type { CustomerLicenseKey } from '../../domain/customer-portal/schemas';
import type { LicenseKey, LicenseKeyStatus } from '../../domain/license-keys/schemas';
import { orderNumber } from '../../domain/orders/rules';
import { ConfirmButton, ErrorNote, formatDate } from '../components';
import { publicPortalCall } from './api';
import { describeExpiry, describeUsage, maskLicenseKey } from './format';
import { portalLicenseKeyQuery } from './queries';

const STATUS: Record<LicenseKeyStatus, [string, 'ok' | 'error' | 'neutral']> = {
  granted: ['Active', 'ok'],
  revoked: ['Revoked', 'error'],
  disabled: ['Disabled', 'neutral'],
};

/** Shown for a few seconds after a copy, then the button reads "Copy" again. */
const COPIED_FOR_MS = 3_000;

function KeyValue({ licenseKey }: { licenseKey: LicenseKey }) {
  const [isRevealed, setRevealed] = useState(false);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const valueId = useId();

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(licenseKey.key);
      setCopy('copied');
      setTimeout(() => setCopy('idle'), COPIED_FOR_MS);
    } catch {
      setCopy('failed');
    }
  }

  return (
    <div className="stack portal-key-block">
      <div className="portal-key-row">
        <code id={valueId} className="portal-key" data-testid="license-key-value">
          {isRevealed ? (
            licenseKey.key
          ) : (
            <>
              <span aria-hidden="true">{maskLicenseKey(licenseKey.key)}</span>
              <span className="visually-hidden">Hidden key ending in {licenseKey.key.slice(-4)}</span>
            </>
          )}
        </code>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            aria-controls={valueId}
            onClick={() => setRevealed((revealed) => !revealed)}
          >
            {isRevealed ? 'Hide' : 'Show'}
          </button>
          <button type="button" className="secondary" onClick={() => void copyKey()}>
            {copy === 'copied' ? 'Copied' : 'Copy'}
          </button>
        </div>
      </div>
      <p className="visually-hidden" role="status">
        {copy === 'copied' ? 'License key copied to the clipboard.' : ''}
      </p>
      {copy === 'failed' ? (
        <p className="field-error" role="alert">
          This browser did not let us copy. Press Show, then select the key and copy it yourself.
        </p>
      ) : null}
    </div>
  );
}

function Activations({ slug, licenseKey }: { slug: string; licenseKey: LicenseKey }) {
  const queryClient = useQueryClient();
  const detail = useQuery(portalLicenseKeyQuery(slug, licenseKey.id));
  const [error, setError] = useState<string | null>(null);
  const activations = detail.data?.activations;
  const limit = licenseKey.limit_activations;
  if (detail.error) return <ErrorNote message={detail.error.message} />;
  if (!activations) return <p role="status">Loading activations…</p>;
  if (limit === null && activations.length === 0) return null;

  async function deactivate(activationId: string) {
    setError(null);
    try {
      // The key is the credential of this call, as it is for the seller's software.
      await publicPortalCall('POST', '/license-keys/deactivate', z.unknown(), {
        key: licenseKey.key,
        organization_id: licenseKey.organization_id,
        activation_id: activationId,
      });
      await queryClient.invalidateQueries({ queryKey: portalLicenseKeyQuery(slug, licenseKey.id).queryKey });
    } catch (failure) {
      setError(`This device could not be deactivated: ${(failure as Error).message}`);
    }
  }

  return (
    <div className="portal-activations" data-testid="license-key-activations">
      <h4>Devices{limit === null ? '' : ` (${activations.length} of ${limit} in use)`}</h4>
      {activations.length === 0 ? (
        <p className="muted">Not activated on any device yet.</p>
      ) : (
        <ul className="plain-list">
          {activations.map((activation) => (
            <li key={activation.id} className="portal-line" data-testid="license-key-activation">
              <span className="wrap">
                {activation.label} <span className="muted">since {formatDate(activation.created_at)}</span>
              </span>
              <ConfirmButton
                label={`Deactivate ${activation.label}`}
                text="Deactivate"
                question="Deactivate this device?"
                onConfirm={() => deactivate(activation.id)}
              />
            </li>
          ))}
        </ul>
      )}
      <ErrorNote message={error} />
    </div>
  );
}

/** "Came with Pro plan, order 3F2A91C0 of 3 Mar 2026": which purchase the key belongs to. */
function GrantedFor({ slug, origin }: { slug: string; origin: CustomerLicenseKey['granted_for'] }) {
  if (!origin) return null;
  return (
    <>
      <dt>From</dt>
      <dd data-testid="license-key-origin">
        <span className="wrap">{origin.product_name}</span>, order{' '}
        <Link to="/portal/$organizationSlug/orders" params={{ organizationSlug: slug }}>
          {orderNumber(origin.order_id)}
        </Link>{' '}
        of {formatDate(origin.ordered_at)}
      </dd>
    </>
  );
}

export function LicenseKeyItem(props: { slug: string; licenseKey: CustomerLicenseKey; name: string }) {
  const { licenseKey } = props;
  const [label, tone] = STATUS[licenseKey.status];
  const headingId = useId();
  return (
    <li className="portal-item" aria-labelledby={headingId} data-testid="portal-license-key">
      <div className="portal-item-head">
        <h3 id={headingId} className="wrap">
          {props.name}
        </h3>
        <span className={`badge badge-${tone}`} data-testid="license-key-status">
          {label}
        </span>
      </div>
      <KeyValue licenseKey={licenseKey} />
      <dl className="portal-facts">
        <GrantedFor slug={props.slug} origin={licenseKey.granted_for} />
        <dt>Expiry</dt>
        <dd data-testid="license-key-expiry">{describeExpiry(licenseKey.expires_at)}</dd>
        <dt>Usage</dt>
        <dd data-testid="license-key-usage">{describeUsage(licenseKey)}</dd>
      </dl>
      <Activations slug={props.slug} licenseKey={licenseKey} />
    </li>
  );
}
