import type { Aggregation, FILTER_OPERATORS, Filter } from '../../../../../domain/meters/schemas';

export type Operator = (typeof FILTER_OPERATORS)[number];

export const OPERATOR_LABELS: Record<Operator, string> = {
  eq: 'equals',
  ne: 'does not equal',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  like: 'contains',
  not_like: 'does not contain',
};

export function describeFilter(filter: Filter): string {
  if (filter.clauses.length === 0) return 'every event';
  return filter.clauses
    .map((clause) =>
      'conjunction' in clause
        ? `(${describeFilter(clause)})`
        : `${clause.property} ${OPERATOR_LABELS[clause.operator]} ${JSON.stringify(clause.value)}`,
    )
    .join(` ${filter.conjunction} `);
}

export function describeAggregation(aggregation: Aggregation): string {
  return aggregation.func === 'count' ? 'count of events' : `${aggregation.func} of ${aggregation.property}`;
}
