import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import {
  FILTER_OPERATORS,
  meterSchema,
  PROPERTY_AGGREGATION_FUNCTIONS,
  type Aggregation,
  type Filter,
  type FilterClause,
  type Meter,
} from '../../../../domain/meters/schemas';
import { sendJson } from '../../../api';
import { authClient } from '../../../auth/client';
import { Card, ErrorNote, formValues } from '../../../components';
import { metersQuery } from '../../../catalog/queries';

export const Route = createFileRoute('/_authenticated/dashboard/meters')({ component: MetersPage });

type Operator = (typeof FILTER_OPERATORS)[number];
type ValueKind = 'text' | 'number' | 'boolean';
type ClauseDraft = {
  kind: 'clause';
  key: number;
  property: string;
  operator: Operator;
  value: string;
  valueKind: ValueKind;
};
type GroupDraft = {
  kind: 'group';
  key: number;
  conjunction: 'and' | 'or';
  clauses: (ClauseDraft | GroupDraft)[];
};

const OPERATOR_LABELS: Record<Operator, string> = {
  eq: 'equals',
  ne: 'does not equal',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  like: 'contains',
  not_like: 'does not contain',
};

let nextKey = 0;
const key = () => (nextKey += 1);
const newClause = (): ClauseDraft => ({
  kind: 'clause',
  key: key(),
  property: '',
  operator: 'eq',
  value: '',
  valueKind: 'text',
});

function toDraft(filter: Filter): GroupDraft {
  return {
    kind: 'group',
    key: key(),
    conjunction: filter.conjunction,
    clauses: filter.clauses.map((clause) =>
      'conjunction' in clause
        ? toDraft(clause)
        : {
            kind: 'clause',
            key: key(),
            property: clause.property,
            operator: clause.operator,
            value: String(clause.value),
            valueKind:
              typeof clause.value === 'string'
                ? 'text'
                : typeof clause.value === 'number'
                  ? 'number'
                  : 'boolean',
          },
    ),
  };
}

/** Values keep the type the seller chose: the event property "42" and the number 42 are different filters. */
function clauseValue(clause: ClauseDraft): FilterClause['value'] {
  if (clause.valueKind === 'number') return Number(clause.value);
  if (clause.valueKind === 'boolean') return clause.value === 'true';
  return clause.value;
}

function fromDraft(group: GroupDraft): Filter {
  return {
    conjunction: group.conjunction,
    clauses: group.clauses.map((clause) =>
      clause.kind === 'group'
        ? fromDraft(clause)
        : { property: clause.property.trim(), operator: clause.operator, value: clauseValue(clause) },
    ),
  };
}

function describeFilter(filter: Filter): string {
  if (filter.clauses.length === 0) return 'every event';
  return filter.clauses
    .map((clause) =>
      'conjunction' in clause
        ? `(${describeFilter(clause)})`
        : `${clause.property} ${OPERATOR_LABELS[clause.operator]} ${JSON.stringify(clause.value)}`,
    )
    .join(` ${filter.conjunction} `);
}

function describeAggregation(aggregation: Aggregation): string {
  return aggregation.func === 'count' ? 'count of events' : `${aggregation.func} of ${aggregation.property}`;
}

function ClauseEditor(props: {
  clause: ClauseDraft;
  path: string;
  onChange: (clause: ClauseDraft) => void;
  onRemove: () => void;
}) {
  const { clause, path, onChange } = props;
  return (
    <div className="inline-form filter-clause" data-testid="filter-clause">
      <label className="field">
        <span>{`Clause ${path} property`}</span>
        <input
          value={clause.property}
          onChange={(event) => onChange({ ...clause, property: event.target.value })}
        />
      </label>
      <label className="field">
        <span>{`Clause ${path} operator`}</span>
        <select
          aria-label={`Clause ${path} operator`}
          value={clause.operator}
          onChange={(event) => onChange({ ...clause, operator: event.target.value as Operator })}
        >
          {FILTER_OPERATORS.map((operator) => (
            <option key={operator} value={operator}>
              {OPERATOR_LABELS[operator]}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{`Clause ${path} value type`}</span>
        <select
          aria-label={`Clause ${path} value type`}
          value={clause.valueKind}
          onChange={(event) =>
            onChange({
              ...clause,
              valueKind: event.target.value as ValueKind,
              value: event.target.value === 'boolean' ? 'true' : clause.value,
            })
          }
        >
          <option value="text">text</option>
          <option value="number">number</option>
          <option value="boolean">true/false</option>
        </select>
      </label>
      <label className="field">
        <span>{`Clause ${path} value`}</span>
        {clause.valueKind === 'boolean' ? (
          <select
            aria-label={`Clause ${path} value`}
            value={clause.value}
            onChange={(event) => onChange({ ...clause, value: event.target.value })}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : (
          <input
            type={clause.valueKind === 'number' ? 'number' : 'text'}
            value={clause.value}
            onChange={(event) => onChange({ ...clause, value: event.target.value })}
          />
        )}
      </label>
      <button type="button" className="secondary" onClick={props.onRemove}>
        {`Remove clause ${path}`}
      </button>
    </div>
  );
}

/** A group of clauses and nested groups; `path` ("1.2") names its fields so each has its own label. */
function GroupEditor(props: {
  group: GroupDraft;
  path: string;
  onChange: (group: GroupDraft) => void;
  onRemove?: () => void;
}) {
  const { group, path, onChange } = props;
  const name = path ? `Group ${path}` : 'Filter';
  const replace = (index: number, clause: ClauseDraft | GroupDraft) =>
    onChange({ ...group, clauses: group.clauses.map((other, at) => (at === index ? clause : other)) });
  const remove = (index: number) =>
    onChange({ ...group, clauses: group.clauses.filter((_, at) => at !== index) });
  const childPath = (index: number) => (path ? `${path}.${index + 1}` : String(index + 1));
  return (
    <fieldset className="filter-group" data-testid="filter-group">
      <legend>{name}</legend>
      <label className="field">
        <span>{`${name} matches`}</span>
        <select
          aria-label={`${name} matches`}
          value={group.conjunction}
          onChange={(event) => onChange({ ...group, conjunction: event.target.value as 'and' | 'or' })}
        >
          <option value="and">all of (and)</option>
          <option value="or">any of (or)</option>
        </select>
      </label>
      {group.clauses.map((clause, index) =>
        clause.kind === 'group' ? (
          <GroupEditor
            key={clause.key}
            group={clause}
            path={childPath(index)}
            onChange={(changed) => replace(index, changed)}
            onRemove={() => remove(index)}
          />
        ) : (
          <ClauseEditor
            key={clause.key}
            clause={clause}
            path={childPath(index)}
            onChange={(changed) => replace(index, changed)}
            onRemove={() => remove(index)}
          />
        ),
      )}
      <div className="button-row">
        <button
          type="button"
          className="secondary"
          onClick={() => onChange({ ...group, clauses: [...group.clauses, newClause()] })}
        >
          {`Add a clause to ${name.toLowerCase()}`}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            onChange({
              ...group,
              clauses: [
                ...group.clauses,
                { kind: 'group', key: key(), conjunction: 'or', clauses: [newClause()] },
              ],
            })
          }
        >
          {`Add a group to ${name.toLowerCase()}`}
        </button>
        {props.onRemove ? (
          <button type="button" className="secondary" onClick={props.onRemove}>
            {`Remove ${name.toLowerCase()}`}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

function MeterForm({
  organizationId,
  meter,
  onDone,
}: {
  organizationId: string;
  meter: Meter | null;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<GroupDraft>(() =>
    meter ? toDraft(meter.filter) : { kind: 'group', key: key(), conjunction: 'and', clauses: [newClause()] },
  );
  const [func, setFunc] = useState<Aggregation['func']>(meter?.aggregation.func ?? 'count');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    const body = {
      name: values.name,
      filter: fromDraft(filter),
      aggregation: func === 'count' ? { func } : { func, property: values.aggregation_property },
    };
    try {
      if (meter) await sendJson('PATCH', `/v1/meters/${meter.id}`, body, meterSchema);
      else await sendJson('POST', '/v1/meters/', { ...body, organization_id: organizationId }, meterSchema);
      setError(null);
      await queryClient.invalidateQueries({ queryKey: ['meters', organizationId] });
      onDone();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <Card title={meter ? `Edit ${meter.name}` : 'Create a meter'}>
      <form onSubmit={onSubmit} className="stack" noValidate>
        <label className="field">
          <span>Meter name</span>
          <input name="name" defaultValue={meter?.name ?? ''} />
        </label>
        <GroupEditor group={filter} path="" onChange={setFilter} />
        <div className="inline-form">
          <label className="field">
            <span>Aggregation</span>
            <select
              aria-label="Aggregation"
              value={func}
              onChange={(event) => setFunc(event.target.value as Aggregation['func'])}
            >
              <option value="count">count events</option>
              {PROPERTY_AGGREGATION_FUNCTIONS.map((value) => (
                <option key={value} value={value}>
                  {value} of a property
                </option>
              ))}
            </select>
          </label>
          {func === 'count' ? null : (
            <label className="field">
              <span>Aggregated property</span>
              <input
                name="aggregation_property"
                defaultValue={meter?.aggregation.func === 'count' ? '' : (meter?.aggregation.property ?? '')}
              />
            </label>
          )}
        </div>
        <div className="button-row">
          <button type="submit">{meter ? 'Save meter' : 'Create meter'}</button>
          {meter ? (
            <button type="button" className="secondary" onClick={onDone}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function MetersPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const [editing, setEditing] = useState<Meter | null>(null);
  const [created, setCreated] = useState(0);
  const meters = useQuery({ ...metersQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
  if (!organizationId) return <p>Choose an organization to see its meters.</p>;
  return (
    <>
      {editing ? (
        <MeterForm
          key={editing.id}
          organizationId={organizationId}
          meter={editing}
          onDone={() => setEditing(null)}
        />
      ) : (
        <MeterForm
          key={`new-${created}`}
          organizationId={organizationId}
          meter={null}
          onDone={() => setCreated(created + 1)}
        />
      )}
      <Card title="Meters">
        <ErrorNote message={meters.error?.message ?? null} />
        {meters.data?.items.length === 0 ? <p className="muted">No meters yet.</p> : null}
        <table className="data-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Counts events where</th>
              <th>Aggregation</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {(meters.data?.items ?? []).map((meter) => (
              <tr key={meter.id} data-testid="meter-row">
                <td>{meter.name}</td>
                <td data-testid="meter-filter">{describeFilter(meter.filter)}</td>
                <td>{describeAggregation(meter.aggregation)}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Edit ${meter.name}`}
                    onClick={() => setEditing(meter)}
                  >
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}
