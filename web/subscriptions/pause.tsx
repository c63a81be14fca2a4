// Pause and resume where people see them (docs/subscriptions.md, "Pause and resume"): the state in
// words, and the controls the portal (when the organization allows it) and the dashboard (owners
// and admins) share. The API decides; these only say what it will do, in the buyer's terms.
import { useId, useState, type FormEvent } from 'react';
import type { Subscription } from '../../domain/subscriptions/schemas';
import { periodStart } from '../../domain/subscriptions/rules';
import { ApiError } from '../api';
import { ErrorNote, formatDate } from '../components';
import { formatMoney } from '../money/format';
import { hasMeteredPrice } from './format';

type PauseFields = Pick<
  Subscription,
  | 'status'
  | 'ended_at'
  | 'cancel_at_period_end'
  | 'pause_at_period_end'
  | 'paused_at'
  | 'resumes_at'
  | 'current_period_end'
  | 'amount'
  | 'currency'
  | 'recurring_interval'
  | 'prices'
> &
  Partial<Pick<Subscription, 'recurring_interval_count'>>;

export type PauseChange = { pause_at_period_end: boolean; resumes_at?: string | null } | { resume: true };

/** "Pauses on 12 January", "Paused since 12 January, resumes on 1 March", "Paused — resume when you want". */
export function describePause(subscription: PauseFields): string | null {
  if (subscription.status === 'paused') {
    const since = `Paused since ${formatDate(subscription.paused_at ?? subscription.current_period_end)}`;
    return subscription.resumes_at
      ? `${since}, resumes on ${formatDate(subscription.resumes_at)}`
      : `${since} — resume when you want`;
  }
  if (subscription.pause_at_period_end && subscription.ended_at === null) {
    const pauses = `Pauses on ${formatDate(subscription.current_period_end)}`;
    return subscription.resumes_at
      ? `${pauses}, resumes on ${formatDate(subscription.resumes_at)}`
      : `${pauses} until resumed`;
  }
  return null;
}

/**
 * What "Resume now" charges: the plan's amount at once, for a new period from now (the billing
 * anchor moves to the resume instant, so it then renews on that day), plus the last active
 * period's usage when the plan has metered prices.
 */
export function describeResumeCharge(subscription: PauseFields, now: Date = new Date()): string {
  const end = periodStart(
    now,
    subscription.recurring_interval,
    1,
    subscription.recurring_interval_count ?? 1,
  );
  const usage = hasMeteredPrice(subscription.prices) ? ' plus the usage of your last period' : '';
  return `Resuming charges ${formatMoney(subscription.amount, subscription.currency)}${usage} now, for a new period from ${formatDate(now)} to ${formatDate(end)}; it then renews every period from that day.`;
}

/** The first day a resume date may fall on: after the day the period ends (the API's rule). */
function firstResumeDay(periodEnd: string | null): string {
  const base = periodEnd ? new Date(periodEnd) : new Date();
  return new Date(base.getTime() + 24 * 3600_000).toISOString().slice(0, 10);
}

function failureMessage(failure: unknown): string {
  if (failure instanceof ApiError) return failure.message;
  return 'We could not reach the server. Check your connection and try again.';
}

/** The state in words for everyone, and the pause, undo and resume buttons for who may act. */
export function PauseControls(props: {
  subscription: PauseFields;
  canAct: boolean;
  /** The product's `pause_keeps_benefits`: whether its benefits go on while it is paused. */
  keepsBenefits: boolean;
  onChange: (change: PauseChange) => Promise<unknown>;
}) {
  const { subscription } = props;
  const [isChoosing, setChoosing] = useState(false);
  const [resumeDay, setResumeDay] = useState('');
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dateId = useId();
  const state = describePause(subscription);
  const isPaused = subscription.status === 'paused';
  const canPause =
    subscription.status === 'active' &&
    subscription.ended_at === null &&
    !subscription.cancel_at_period_end &&
    !subscription.pause_at_period_end;

  async function run(change: PauseChange) {
    setBusy(true);
    setError(null);
    try {
      await props.onChange(change);
      setChoosing(false);
      setResumeDay('');
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  function onPause(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run({ pause_at_period_end: true, resumes_at: resumeDay ? `${resumeDay}T00:00:00Z` : null });
  }

  return (
    <div className="stack" data-testid="pause-controls">
      {state ? <p data-testid="pause-state">{state}</p> : null}
      {isPaused ? <p className="muted">Nothing is charged while it is paused.</p> : null}
      {props.canAct && isPaused ? (
        <>
          <p className="muted" data-testid="resume-charge">
            {describeResumeCharge(subscription)}
          </p>
          <div className="button-row wrap-row">
            <button type="button" disabled={isBusy} onClick={() => void run({ resume: true })}>
              {isBusy ? 'Resuming…' : 'Resume now'}
            </button>
          </div>
        </>
      ) : null}
      {props.canAct && subscription.pause_at_period_end && !isPaused ? (
        <div className="button-row wrap-row">
          <button
            type="button"
            className="secondary"
            disabled={isBusy}
            onClick={() => void run({ pause_at_period_end: false })}
          >
            {isBusy ? 'Saving…' : "Don't pause"}
          </button>
        </div>
      ) : null}
      {props.canAct && canPause && !isChoosing ? (
        <div className="button-row wrap-row">
          <button type="button" className="secondary" onClick={() => setChoosing(true)}>
            Pause at the end of this period
          </button>
        </div>
      ) : null}
      {props.canAct && canPause && isChoosing ? (
        <form className="stack" onSubmit={onPause} noValidate data-testid="pause-form">
          <p>
            Pauses on {formatDate(subscription.current_period_end)}: nothing is charged from then until it
            resumes, and{' '}
            {props.keepsBenefits ? 'its benefits go on meanwhile.' : 'its benefits stop until it resumes.'}
          </p>
          <label className="field" htmlFor={dateId}>
            <span>Resume on (optional)</span>
            <input
              id={dateId}
              type="date"
              min={firstResumeDay(subscription.current_period_end)}
              value={resumeDay}
              onChange={(event) => setResumeDay(event.target.value)}
            />
          </label>
          <div className="button-row wrap-row">
            <button type="submit" disabled={isBusy}>
              {isBusy ? 'Saving…' : 'Pause'}
            </button>
            <button type="button" className="secondary" onClick={() => setChoosing(false)}>
              Not now
            </button>
          </div>
        </form>
      ) : null}
      <ErrorNote message={error} />
    </div>
  );
}
