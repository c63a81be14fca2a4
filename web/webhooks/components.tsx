import { useState } from 'react';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/events/schemas';
import { WEBHOOK_FORMATS } from '../../domain/webhooks/rules';
import './webhooks.css';

const FORMAT_LABELS: Record<(typeof WEBHOOK_FORMATS)[number], string> = {
  raw: 'Raw JSON',
  discord: 'Discord',
  slack: 'Slack',
};

/** URL, format and events of an endpoint, as named form fields (`url`, `format`, `events`). */
export function EndpointFields(props: {
  url?: string;
  format?: string;
  events?: readonly WebhookEventType[];
}) {
  const [events, setEvents] = useState<WebhookEventType[]>([...(props.events ?? [])]);
  const allChecked = events.length === WEBHOOK_EVENT_TYPES.length;
  return (
    <>
      <label className="field">
        <span>Endpoint URL</span>
        <input
          name="url"
          type="url"
          inputMode="url"
          defaultValue={props.url ?? ''}
          placeholder="https://"
          required
        />
      </label>
      <label className="field">
        <span>Format</span>
        <select aria-label="Format" name="format" defaultValue={props.format ?? 'raw'}>
          {WEBHOOK_FORMATS.map((format) => (
            <option key={format} value={format}>
              {FORMAT_LABELS[format]}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>Events</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={allChecked}
            onChange={() => setEvents(allChecked ? [] : [...WEBHOOK_EVENT_TYPES])}
          />
          All events
        </label>
        {events.length === 0 ? <NoEventsWarning /> : null}
        <div className="event-grid">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="checkbox">
              <input
                type="checkbox"
                name="events"
                value={type}
                checked={events.includes(type)}
                onChange={(event) =>
                  setEvents(
                    event.target.checked ? [...events, type] : events.filter((other) => other !== type),
                  )
                }
              />
              {type}
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}

/** An endpoint without events is sent nothing but test events. */
export function NoEventsWarning() {
  return (
    <p className="webhook-warning" role="note" data-testid="webhook-no-events">
      This endpoint subscribes to no events, so nothing will be sent to it. Tick the events your receiver
      handles, or &ldquo;All events&rdquo;, then save.
    </p>
  );
}

/** The form's checked events; `formValues` keeps only one value per name. */
export function checkedEvents(form: HTMLFormElement): string[] {
  return new FormData(form).getAll('events').map(String);
}

/** A secret shown once: after "Done" the page cannot show it again. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice" role="status">
      <p>Copy this signing secret now: it will not be shown again.</p>
      <code className="secret" data-testid="webhook-secret">
        {secret}
      </code>
      <div className="button-row">
        <button
          type="button"
          className="secondary"
          onClick={() => void navigator.clipboard.writeText(secret).then(() => setCopied(true))}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
