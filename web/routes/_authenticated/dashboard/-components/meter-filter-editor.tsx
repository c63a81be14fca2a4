import { FILTER_OPERATORS, type Filter, type FilterClause } from '../../../../../domain/meters/schemas';
import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import { FormField } from '../../../../forms/form-field';
import type { FormWords } from '../../../../forms/messages';
import { TextField } from '../../../../forms/text-field';
import { nameWords, textWords } from '../../../../forms/words';
import { OPERATOR_LABELS, type Operator } from './meter-labels';

/** The API's limit on a clause's text value (domain/meters/schemas.ts). */
const VALUE_MAX_LENGTH = 1000;
/** Groups nest deeper in principle; words are written for the depths a page can show legibly. */
const WORDED_DEPTH = 6;

/** A clause's words at every depth: `filter.clauses.*.property`, `filter.clauses.*.clauses.*.property`, … */
export const FILTER_WORDS: FormWords = Object.fromEntries(
  Array.from({ length: WORDED_DEPTH }, (_, depth) => `filter${'.clauses.*'.repeat(depth + 1)}`).flatMap(
    (clause) => [
      [`${clause}.property`, nameWords('property name', { max: TEXT_MAX_LENGTH.name })],
      [
        `${clause}.value`,
        { ...textWords(VALUE_MAX_LENGTH), other: 'Enter a value: text, a whole number, or true/false.' },
      ],
    ],
  ),
);

/** "2.1" (the labels' numbering, from 1) → `filter.clauses.1.clauses.0`, the API's path of that clause. */
function locOf(path: string): string {
  return ['filter', ...path.split('.').map((part) => `clauses.${Number(part) - 1}`)].join('.');
}

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
  errors: Record<string, string>;
  onChange: (clause: ClauseDraft) => void;
  onRemove: () => void;
}) {
  const { clause, path, onChange } = props;
  const loc = locOf(path);
  return (
    <div className="inline-form filter-clause" data-testid="filter-clause">
      <TextField
        label={`Clause ${path} property`}
        field={`${loc}.property`}
        error={props.errors[`${loc}.property`]}
        required
        maxLength={TEXT_MAX_LENGTH.name}
        value={clause.property}
        onChange={(property) => onChange({ ...clause, property })}
      />
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
      <FormField
        label={`Clause ${path} value`}
        field={`${loc}.value`}
        error={props.errors[`${loc}.value`]}
        required
        className="field"
      >
        {(control) =>
          clause.valueKind === 'boolean' ? (
            <select
              {...control}
              value={clause.value}
              onChange={(event) => onChange({ ...clause, value: event.target.value })}
            >
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          ) : (
            <input
              {...control}
              type={clause.valueKind === 'number' ? 'number' : 'text'}
              maxLength={VALUE_MAX_LENGTH}
              value={clause.value}
              onChange={(event) => onChange({ ...clause, value: event.target.value })}
            />
          )
        }
      </FormField>
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
  /** The meter form's errors; each clause reads those under its own path. */
  errors: Record<string, string>;
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
            errors={props.errors}
            onChange={(changed) => replace(index, changed)}
            onRemove={() => remove(index)}
          />
        ) : (
          <ClauseEditor
            key={clause.key}
            clause={clause}
            path={childPath(index)}
            errors={props.errors}
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
