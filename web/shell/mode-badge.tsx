import { useQuery } from '@tanstack/react-query';
import { settingsQuery } from '../system/queries';

/**
 * Test or live, always in sight in the top bar. On the dashboard it stands in for the sandbox
 * banner the other pages show (web/routes/__root.tsx), so the warning is not said twice.
 */
export function ModeBadge() {
  const { data: settings } = useQuery(settingsQuery);
  if (!settings) return null;
  const sandbox = settings.mode === 'sandbox';
  return (
    <span
      className="mode-badge"
      data-mode={settings.mode}
      data-testid="mode-badge"
      title={
        sandbox
          ? 'Sandbox mode: payments use test cards and no real money moves.'
          : 'Live mode: payments charge real cards.'
      }
    >
      {sandbox ? 'Test mode' : 'Live'}
    </span>
  );
}
