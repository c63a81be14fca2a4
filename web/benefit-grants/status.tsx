import type { BenefitGrant, BenefitType } from '../../domain/benefits/schemas';
import { formatDateTime } from '../components';

type Tone = 'ok' | 'warn' | 'error' | 'neutral';

export type GrantStatus = 'granted' | 'pending' | 'waiting' | 'failed' | 'revoked';

/**
 * The error type of a grant that waits for the customer (a GitHub or Discord account to connect)
 * rather than for a retry: connecting the account wakes it (docs/benefits.md).
 */
const WAITS_FOR_CUSTOMER = 'account_not_linked';

type GrantState = Pick<BenefitGrant, 'is_granted' | 'is_revoked' | 'error'>;

/**
 * Where a grant stands for the seller. An error wins over the dates: each successful step clears
 * it, so an error means the grant's latest step (grant, revoke, renewal, update) has not happened.
 */
export function grantStatus(grant: GrantState): GrantStatus {
  if (grant.error) return grant.error.type === WAITS_FOR_CUSTOMER ? 'waiting' : 'failed';
  if (grant.is_revoked) return 'revoked';
  if (grant.is_granted) return 'granted';
  return 'pending';
}

const STATUS: Record<GrantStatus, [string, Tone]> = {
  granted: ['Granted', 'ok'],
  pending: ['Being granted', 'neutral'],
  waiting: ['Waiting for the customer', 'warn'],
  failed: ['Failed, retrying', 'error'],
  revoked: ['Revoked', 'neutral'],
};

export function GrantStatusBadge({ grant }: { grant: GrantState }) {
  const [label, tone] = STATUS[grantStatus(grant)];
  return (
    <span className={`badge badge-${tone}`} data-testid="grant-status">
      {label}
    </span>
  );
}

/** A grant still on its way to its first step: the pages showing it poll until it is done. */
export const isGrantPending = (grant: GrantState) => grantStatus(grant) === 'pending';

/** How many grants of each status, e.g. "2 granted · 1 waiting for the customer". */
export function summarizeGrants(grants: readonly GrantState[]): string {
  const counts = new Map<GrantStatus, number>();
  for (const grant of grants) counts.set(grantStatus(grant), (counts.get(grantStatus(grant)) ?? 0) + 1);
  return (Object.keys(STATUS) as GrantStatus[])
    .filter((status) => counts.has(status))
    .map((status) => `${counts.get(status)} ${STATUS[status][0].toLowerCase()}`)
    .join(' · ');
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What the grant gave, for the benefit types that give something countable or named. */
function describeProperties(type: BenefitType, properties: BenefitGrant['properties']): string | null {
  switch (type) {
    case 'license_keys':
      // The masked key: enough for the seller to match what the customer reads out.
      return typeof properties.display_key === 'string' ? `Key ${properties.display_key}` : null;
    case 'downloadables':
      return Array.isArray(properties.files) ? plural(properties.files.length, 'file', 'files') : null;
    case 'meter_credit':
      return typeof properties.last_credited_units === 'number'
        ? `${plural(properties.last_credited_units, 'unit', 'units')} credited on ${formatDateTime(
            properties.last_credited_at as string | null,
          )}`
        : null;
    case 'github_repository':
    case 'discord':
      // The account the access went to, once the customer has connected one.
      return typeof properties.account_username === 'string'
        ? `${type === 'discord' ? 'Discord' : 'GitHub'} account ${properties.account_username}`
        : null;
    default:
      return null;
  }
}

function describeDates(grant: BenefitGrant): string {
  const granted = grant.granted_at ? `Granted on ${formatDateTime(grant.granted_at)}` : null;
  if (grant.revoked_at) {
    const revoked = formatDateTime(grant.revoked_at);
    return granted ? `${granted}, revoked on ${revoked}` : `Revoked on ${revoked}`;
  }
  return granted ?? `Since ${formatDateTime(grant.created_at)}`;
}

/** Integrations' messages may end without a full stop; the sentence after them needs one. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** The grant's dates, what it gave, and why it is waiting or failing, in the seller's words. */
export function GrantDetails({ grant, type }: { grant: BenefitGrant; type: BenefitType }) {
  const status = grantStatus(grant);
  const given = describeProperties(type, grant.properties);
  return (
    <div className="grant-details">
      <p data-testid="grant-dates">{describeDates(grant)}</p>
      {given ? <p data-testid="grant-given">{given}</p> : null}
      {grant.error && status === 'waiting' ? (
        <p data-testid="grant-error">
          {sentence(grant.error.message)} It is granted as soon as they do.{' '}
          <span className="muted">Last checked on {formatDateTime(grant.error.timestamp)}.</span>
        </p>
      ) : null}
      {grant.error && status === 'failed' ? (
        <p data-testid="grant-error" className="grant-error">
          {grant.granted_at && !grant.revoked_at ? 'A change to this grant' : 'Granting'} failed on{' '}
          {formatDateTime(grant.error.timestamp)}: {sentence(grant.error.message)}{' '}
          <span className="muted">It is tried again automatically.</span>
        </p>
      ) : null}
    </div>
  );
}
