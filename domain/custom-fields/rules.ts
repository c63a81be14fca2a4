import type { CustomFieldProperties } from './schemas.js';

export type PropertyIssue = { path: string[]; message: string };

/**
 * Bounds that contradict each other would make the field impossible to fill in at checkout:
 * ge ≤ le (date, number), min_length ≤ max_length (text), select option values unique.
 */
export function propertiesIssues(properties: CustomFieldProperties): PropertyIssue[] {
  const issues: PropertyIssue[] = [];
  if (
    'ge' in properties &&
    properties.ge !== undefined &&
    properties.le !== undefined &&
    properties.ge > properties.le
  ) {
    issues.push({ path: ['ge'], message: 'ge must be less than or equal to le.' });
  }
  if (
    'min_length' in properties &&
    properties.min_length !== undefined &&
    properties.max_length !== undefined &&
    properties.min_length > properties.max_length
  ) {
    issues.push({ path: ['min_length'], message: 'min_length must be less than or equal to max_length.' });
  }
  if ('options' in properties) {
    const values = properties.options.map((option) => option.value);
    if (new Set(values).size !== values.length) {
      issues.push({ path: ['options'], message: 'Option values must be unique.' });
    }
  }
  return issues;
}
