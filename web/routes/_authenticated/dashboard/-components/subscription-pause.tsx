import type { Subscription } from '../../../../../domain/subscriptions/schemas';
import { Card } from '../../../../components';
import { useSubscriptionChange } from '../../../../subscriptions/changes';
import { describePause, PauseControls } from '../../../../subscriptions/pause';

/**
 * The seller's pause card: the state in words for every member, the pause (with an optional resume
 * date), its undo and "Resume now" for owners and admins. Shown while the plan is active or paused.
 */
export function SubscriptionPause(props: { subscription: Subscription; canManage: boolean }) {
  const { subscription } = props;
  const change = useSubscriptionChange(subscription.id);
  const relevant =
    subscription.ended_at === null && (subscription.status === 'active' || subscription.status === 'paused');
  if (!relevant || (!props.canManage && describePause(subscription) === null)) return null;
  return (
    <Card title="Pause" testId="subscription-pause">
      <PauseControls
        subscription={subscription}
        canAct={props.canManage}
        keepsBenefits={subscription.product.pause_keeps_benefits}
        onChange={(pause) => change(pause)}
      />
    </Card>
  );
}
