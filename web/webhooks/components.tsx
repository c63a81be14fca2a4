import { useState } from 'react';
import { SENT_WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhook-outbox/schemas';
import { API_VERSIONS, CURRENT_API_VERSION } from '../../domain/platform/api-versions';
import { TEXT_MAX_LENGTH } from '../../domain/platform/schemas';
import { WEBHOOK_FORMATS, WEBHOOK_URL_MESSAGES } from '../../domain/webhooks/rules';
import { FormField } from '../forms/form-field';
import type { FormWords } from '../forms/messages';
import { choiceWords, textWords, URL_WORDS } from '../forms/words';
import './webhooks.css';

const FORMAT_LABELS: Record<(typeof WEBHOOK_FORMATS)[number], string> = {
  raw: 'Raw JSON',
  discord: 'Discord',
  slack: 'Slack',
};

/**
 * The words of the endpoint forms: the URL's two refusals are the API's own sentences (not a web
 * address; not https), and a refusal of the deployment (a private address) keeps its sentence.
 */
export const ENDPOINT_WORDS: FormWords = {
  url: {
    invalid_format: WEBHOOK_URL_MESSAGES.notAUrl,
    custom: WEBHOOK_URL_MESSAGES.notHttps,
    ...URL_WORDS,
    other: WEBHOOK_URL_MESSAGES.notAUrl,
  },
  format: choiceWords('format'),
  api_version: choiceWords('API version'),
  events: { other: 'Choose the events again: one of them is not known.' },
  'events.*': { other: 'Choose the events again: one of them is not known.' },
  secret: textWords(255),
};

/**
 * URL, format and events of an endpoint, as named form fields (`url`, `format`, `events`), with
 * the URL's error under it. An endpoint without events is warned about once the seller is filling
 * the form in (or editing one that has none), not on the empty form of a new one.
 */
export function EndpointFields(props: {
  url?: string;
  format?: string;
  apiVersion?: string;
  events?: readonly WebhookEventType[];
  errors?: Record<string, string>;
}) {
  const [events, setEvents] = useState<WebhookEventType[]>([...(props.events ?? [])]);
  const [isFilledIn, setFilledIn] = useState(props.events !== undefined);
  // The dashboard offers the types Tollgate sends; one subscribed through the API stays ticked.
  const allChecked = SENT_WEBHOOK_EVENT_TYPES.every((type) => events.includes(type));
  const choose = (chosen: WebhookEventType[]) => {
    setFilledIn(true);
    setEvents(chosen);
  };
  return (
    <>
      <FormField label="Endpoint URL" field="url" error={props.errors?.url} required className="field">
        {(control) => (
          <input
            {...control}
            name="url"
            type="url"
            inputMode="url"
            maxLength={TEXT_MAX_LENGTH.url}
            defaultValue={props.url ?? ''}
            placeholder="https://"
            onInput={(event) => setFilledIn(isFilledIn || event.currentTarget.value.trim() !== '')}
          />
        )}
      </FormField>
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
      <label className="field">
        <span>API version of the payloads</span>
        <select
          aria-label="API version of the payloads"
          name="api_version"
          defaultValue={props.apiVersion ?? CURRENT_API_VERSION}
        >
          {API_VERSIONS.map((version) => (
            <option key={version} value={version}>
              {version}
              {version === CURRENT_API_VERSION ? ' (current)' : ''}
            </option>
          ))}
        </select>
        <small className="field-hint">
          Events are rendered in this version of Polar&rsquo;s API. A change applies to events from now on;
          redeliveries keep the version they were made in.
        </small>
      </label>
      <fieldset>
        <legend>Events</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={allChecked}
            onChange={() => choose(allChecked ? [] : [...SENT_WEBHOOK_EVENT_TYPES])}
          />
          All events
        </label>
        {events.length === 0 && isFilledIn ? <NoEventsWarning /> : null}
        {props.errors?.events ? <p className="field-error">{props.errors.events}</p> : null}
        <div className="event-grid">
          {[
            ...SENT_WEBHOOK_EVENT_TYPES,
            ...events.filter((type) => !SENT_WEBHOOK_EVENT_TYPES.includes(type as never)),
          ].map((type) => (
            <label key={type} className="checkbox">
              <input
                type="checkbox"
                name="events"
                value={type}
                checked={events.includes(type)}
                onChange={(event) =>
                  choose(event.target.checked ? [...events, type] : events.filter((other) => other !== type))
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
      <p>Copy this signing secret into your receiver now: this page shows it only once.</p>
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
