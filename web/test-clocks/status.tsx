import type { TestClock } from '../../domain/test-clocks/schemas';

export function TestClockStatusBadge({ status }: { status: TestClock['status'] }) {
  return status === 'advancing' ? (
    <span className="badge badge-warn" data-testid="test-clock-status">
      Advancing…
    </span>
  ) : (
    <span className="badge badge-ok" data-testid="test-clock-status">
      Ready
    </span>
  );
}

export const clockName = (clock: Pick<TestClock, 'id' | 'name'>) =>
  clock.name ?? `Clock ${clock.id.slice(0, 8)}`;

/** What a live server's dashboard says instead of the test clock pages (the API answers 403 there). */
export const LIVE_MODE_NOTE =
  'Test clocks exist only in sandbox mode. This server takes real payments, which follow real time.';
