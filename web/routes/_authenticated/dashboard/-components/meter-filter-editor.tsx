import { FILTER_OPERATORS, type Filter, type FilterClause } from '../../../../../domain/meters/schemas';
import { OPERATOR_LABELS, type Operator } from './meter-labels';

type ValueKind = 'text' | 'number' | 'boolean';
type ClauseDraft = {
  kind: 'clause';
  key: number;
  property: string;
  operator: Operator;
  value: string;
  valueKind: ValueKind;
};
export type GroupDraft = {
  kind: 'group';
  key: number;
  conjunction: 'and' | 'or';
  clauses: (ClauseDraft | GroupDraft)[];
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

/** A new meter's filter: every event (`and`) matching one clause yet to be filled in. */
export const newFilterDraft = (): GroupDraft => ({
  kind: 'group',
  key: key(),
  conjunction: 'and',
  clauses: [newClause()],
});

export function toDraft(filter: Filter): GroupDraft {
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

export function fromDraft(group: GroupDraft): Filter {
  return {
    conjunction: group.conjunction,
    clauses: group.clauses.map((clause) =>
      clause.kind === 'group'
        ? fromDraft(clause)
        : { property: clause.property.trim(), operator: clause.operator, value: clauseValue(clause) },
    ),
  };
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
export function GroupEditor(props: {
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
