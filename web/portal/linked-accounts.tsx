import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { accountLinkSchema, type AccountPlatform } from '../../domain/customer-accounts/schemas';
import { customerBenefitGrantSchema, type CustomerBenefitGrant } from '../../domain/customer-portal/schemas';
import { ErrorNote } from '../components';
import { portalCall } from './api';
import { portalCustomerKey, portalMeQuery } from './queries';

const PLATFORM_NAMES: Record<AccountPlatform, string> = { github: 'GitHub', discord: 'Discord' };

/** What the platform's answer (`oauth_error`, set by the callback) means to the buyer. */
const LINK_ERRORS: Record<string, string> = {
  access_denied: 'You did not allow the connection. Connect again when you are ready.',
  invalid_code: 'The connection took too long or was already used. Connect again.',
  platform_error: 'The platform did not answer. Try again in a few minutes.',
};

/** The `oauth_error` the callback sent the browser back with, read once and taken out of the URL. */
export function takeLinkError(): string | null {
  const url = new URL(window.location.href);
  const code = url.searchParams.get('oauth_error');
  if (!code) return null;
  url.searchParams.delete('oauth_error');
  window.history.replaceState(window.history.state, '', url);
  return LINK_ERRORS[code] ?? LINK_ERRORS.platform_error!;
}

export type AccountGrant = Extract<
  CustomerBenefitGrant,
  { benefit: { type: 'github_repository' | 'discord' } }
>;

/**
 * A GitHub or Discord benefit goes to the account the buyer connects here (OAuth through our API):
 * connect, see where access went, move it to a newly connected account, or disconnect.
 */
export function LinkedAccountGrant({ slug, grant }: { slug: string; grant: AccountGrant }) {
  const queryClient = useQueryClient();
  const me = useQuery(portalMeQuery(slug));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const platform: AccountPlatform = grant.benefit.type === 'github_repository' ? 'github' : 'discord';
  const name = PLATFORM_NAMES[platform];
  const linked = me.data?.oauth_accounts[platform];
  const grantedTo = grant.properties.account_id;

  async function act(work: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: portalCustomerKey(slug) });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Something went wrong. Try again.');
    } finally {
      setBusy(false);
    }
  }

  const connect = () =>
    act(async () => {
      const returnTo = encodeURIComponent(window.location.href);
      const link = await portalCall(
        slug,
        'GET',
        `/oauth-accounts/authorize?platform=${platform}&return_to=${returnTo}`,
        accountLinkSchema,
      );
      window.location.assign(link.url);
    });
  const disconnect = () => act(() => portalCall(slug, 'DELETE', `/oauth-accounts/${platform}`, z.null()));
  const moveHere = (accountId: string) =>
    act(() =>
      portalCall(slug, 'PATCH', `/benefit-grants/${grant.id}`, customerBenefitGrantSchema, {
        benefit_type: grant.benefit.type,
        properties: { account_id: accountId },
      }),
    );

  if (!linked) {
    return (
      <div data-testid="connect-account">
        <p className="muted">
          {grant.granted_at
            ? `Given to the ${name} account you connected before. Connect one to move it there.`
            : `To get this, connect your ${name} account.`}
        </p>
        <button type="button" disabled={busy} onClick={() => void connect()}>
          Connect {name}
        </button>
        <ErrorNote message={error} />
      </div>
    );
  }
  const who = linked.account_username ? `@${linked.account_username}` : `account ${linked.account_id}`;
  const elsewhere = grantedTo && grantedTo !== linked.account_id;
  return (
    <div data-testid="linked-account">
      <p className="wrap">
        {elsewhere
          ? `Given to another ${name} account than the one connected now (${who}).`
          : grant.granted_at
            ? `Given to your ${name} account ${who}.`
            : `Connected as ${who}; access is on its way.`}
      </p>
      <div className="actions">
        {elsewhere ? (
          <button type="button" disabled={busy} onClick={() => void moveHere(linked.account_id)}>
            Move it to {who}
          </button>
        ) : null}
        <button type="button" className="secondary" disabled={busy} onClick={() => void disconnect()}>
          Disconnect {name}
        </button>
      </div>
      <p className="muted">Disconnecting keeps what was already given; connect another account to move it.</p>
      <ErrorNote message={error} />
    </div>
  );
}
