import { Link } from '@tanstack/react-router';
import type { CustomerBenefitGrant } from '../../domain/customer-portal/schemas';
import { formatDate } from '../components';
import { formatUnits } from './format';
import { LinkedAccountGrant, type AccountGrant } from './linked-accounts';

const TYPE_LABELS: Record<CustomerBenefitGrant['benefit']['type'], string> = {
  custom: 'Note from the seller',
  discord: 'Discord access',
  github_repository: 'GitHub repository access',
  downloadables: 'Files',
  license_keys: 'License key',
  meter_credit: 'Usage credits',
};

/** What the grant gives and where the buyer finds it. */
function GrantDetail({ slug, grant }: { slug: string; grant: CustomerBenefitGrant }) {
  const params = { organizationSlug: slug };
  switch (grant.benefit.type) {
    case 'custom': {
      const note = grant.benefit.properties.note;
      return note ? (
        <p className="portal-note" data-testid="benefit-note">
          {note}
        </p>
      ) : null;
    }
    case 'license_keys':
      return (
        <Link to="/portal/$organizationSlug/license-keys" params={params}>
          See your license key
        </Link>
      );
    case 'downloadables':
      return (
        <Link to="/portal/$organizationSlug/downloads" params={params}>
          See your files
        </Link>
      );
    case 'meter_credit':
      return (
        <p>
          {formatUnits(grant.benefit.properties.units)} units credited{' '}
          {grant.benefit.properties.rollover ? '(unused units carry over)' : 'each period'} ·{' '}
          <Link to="/portal/$organizationSlug/usage" params={params}>
            See your usage
          </Link>
        </p>
      );
    case 'github_repository':
    case 'discord':
      // The union is keyed by the embedded benefit's type, which TypeScript does not narrow on.
      return <LinkedAccountGrant slug={slug} grant={grant as AccountGrant} />;
  }
}

export function GrantItem({ slug, grant }: { slug: string; grant: CustomerBenefitGrant }) {
  return (
    <li className="portal-item" data-testid="portal-benefit">
      <div className="portal-item-head">
        <h3 className="wrap">{grant.benefit.description}</h3>
        <span className="badge badge-neutral">{TYPE_LABELS[grant.benefit.type]}</span>
      </div>
      {grant.granted_at ? <p className="muted">Since {formatDate(grant.granted_at)}</p> : null}
      <GrantDetail slug={slug} grant={grant} />
    </li>
  );
}
