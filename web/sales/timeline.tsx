import type { ReactNode } from 'react';
import { Card, ErrorNote, formatDateTime } from '../components';
import './sales.css';

/**
 * The colour of an entry's dot: what went well, what went wrong, what is coming (a plan set to
 * end), what merely happened.
 */
export type TimelineTone = 'ok' | 'bad' | 'warn' | 'quiet';

type TimelineData = { items: readonly { type: string; at: string }[] };

/**
 * An order's or a customer's timeline in its card: one dated line an entry, in the order the API
 * gives them, the error if reading failed, "Loading…" until the first answer.
 */
export function TimelineCard<Data extends TimelineData>(props: {
  testId: string;
  label: string;
  timeline: { data: Data | undefined; error: Error | null; isPending: boolean };
  describe: (entry: Data['items'][number], data: Data) => { tone: TimelineTone; content: ReactNode };
}) {
  const data = props.timeline.data;
  return (
    <Card title="Timeline" testId={props.testId}>
      <ErrorNote message={props.timeline.error?.message ?? null} />
      {data ? (
        <ol className="timeline" aria-label={props.label}>
          {data.items.map((entry, index) => {
            const { tone, content } = props.describe(entry, data);
            return (
              <li
                key={`${entry.type}:${entry.at}:${index}`}
                className="timeline-entry"
                data-tone={tone}
                data-testid="timeline-entry"
                data-type={entry.type}
              >
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                {content}
              </li>
            );
          })}
        </ol>
      ) : props.timeline.isPending ? (
        <p className="muted">Loading…</p>
      ) : null}
    </Card>
  );
}
