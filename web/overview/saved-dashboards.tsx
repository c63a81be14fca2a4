import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { METRIC_DEFINITIONS } from '../../domain/metrics/rules';
import {
  METRIC_SLUGS,
  metricDashboardSchema,
  type MetricDashboard,
  type MetricSlug,
} from '../../domain/metrics/schemas';
import { deleteResource, formErrors, sendJson } from '../api';
import { ErrorNote } from '../components';
import { FormField } from '../forms/form-field';

// Saved dashboards on the Overview: the viewer pins one (or the standard cards), and owners and
// admins save and delete them. A pin is the viewer's own choice, kept in this browser per
// organization and in the address (`?dashboard=`), so members may pin as well.

const pinKey = (organizationId: string) => `tollgate.pinned-dashboard.${organizationId}`;

export function storedPin(organizationId: string): string | null {
  return window.localStorage.getItem(pinKey(organizationId));
}

export function storePin(organizationId: string, dashboardId: string | null) {
  if (dashboardId) window.localStorage.setItem(pinKey(organizationId), dashboardId);
  else window.localStorage.removeItem(pinKey(organizationId));
}

export function DashboardPicker(props: {
  dashboards: MetricDashboard[];
  pinned: MetricDashboard | null;
  onPin: (dashboardId: string | null) => void;
}) {
  return (
    <label className="field overview-range">
      <span>Dashboard</span>
      <select
        value={props.pinned?.id ?? ''}
        onChange={(event) => props.onPin(event.target.value || null)}
        data-testid="dashboard-picker"
      >
        <option value="">Standard overview</option>
        {props.dashboards.map((dashboard) => (
          <option key={dashboard.id} value={dashboard.id}>
            {dashboard.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The form of a new dashboard: a name and the metrics it pins, in the order they are ticked. */
export function SaveDashboardForm(props: {
  organizationId: string;
  onSaved: (dashboard: MetricDashboard) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [metrics, setMetrics] = useState<MetricSlug[]>([]);
  const [errors, setErrors] = useState<{ name?: string; form?: string | null }>({});
  const [busy, setBusy] = useState(false);
  // Closed once saved, so that the new dashboard's cards are what the page shows next.
  const details = useRef<HTMLDetailsElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) return setErrors({ name: 'Enter a name.' });
    if (metrics.length === 0) return setErrors({ form: 'Tick at least one metric.' });
    setBusy(true);
    try {
      const saved = await sendJson(
        'POST',
        '/v1/metrics/dashboards',
        { name: name.trim(), metrics, organization_id: props.organizationId },
        metricDashboardSchema,
      );
      await queryClient.invalidateQueries({ queryKey: ['metric-dashboards', props.organizationId] });
      setName('');
      setMetrics([]);
      setErrors({});
      if (details.current) details.current.open = false;
      props.onSaved(saved);
    } catch (failure) {
      const found = formErrors(failure, ['name']);
      setErrors({ ...(found.fields.name ? { name: found.fields.name } : {}), form: found.form });
    } finally {
      setBusy(false);
    }
  }

  const toggle = (slug: MetricSlug, isOn: boolean) =>
    setMetrics((current) => (isOn ? [...current, slug] : current.filter((each) => each !== slug)));

  return (
    <details className="overview-save" ref={details}>
      <summary>Save a dashboard</summary>
      <form
        onSubmit={(event) => void onSubmit(event)}
        className="stack"
        noValidate
        aria-label="Save a dashboard"
      >
        <FormField label="Name" field="name" required error={errors.name}>
          {(control) => <input {...control} value={name} onChange={(event) => setName(event.target.value)} />}
        </FormField>
        <fieldset className="overview-metric-choices">
          <legend>Metrics</legend>
          {METRIC_SLUGS.map((slug) => (
            <label key={slug}>
              <input
                type="checkbox"
                checked={metrics.includes(slug)}
                onChange={(event) => toggle(slug, event.target.checked)}
              />{' '}
              {METRIC_DEFINITIONS[slug].display_name}
            </label>
          ))}
        </fieldset>
        <ErrorNote message={errors.form ?? null} />
        <button type="submit" disabled={busy}>
          Save dashboard
        </button>
      </form>
    </details>
  );
}

export function DeleteDashboardButton(props: {
  organizationId: string;
  dashboard: MetricDashboard;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  async function onDelete() {
    if (!window.confirm(`Delete the dashboard “${props.dashboard.name}”?`)) return;
    try {
      await deleteResource(`/v1/metrics/dashboards/${props.dashboard.id}`);
      await queryClient.invalidateQueries({ queryKey: ['metric-dashboards', props.organizationId] });
      props.onDeleted();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <>
      <button type="button" className="secondary" onClick={() => void onDelete()}>
        Delete dashboard
      </button>
      <ErrorNote message={error} />
    </>
  );
}
