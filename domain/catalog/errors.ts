export type CatalogIssue = { loc: (string | number)[]; msg: string; type: string };

/**
 * The one error of the catalog domains (products, files, custom fields, meters). `not_found` covers
 * other organizations' objects too: answering 403 would confirm they exist.
 */
export class CatalogError extends Error {
  constructor(
    readonly reason: 'not_found' | 'not_permitted' | 'invalid',
    message: string,
    readonly issues: CatalogIssue[] = [],
  ) {
    super(message);
    this.name = 'CatalogError';
  }

  /** Invalid input: `loc` is the path inside the body, as in a 422 from schema validation. */
  static invalid(loc: (string | number)[], msg: string, type = 'value_error'): CatalogError {
    return new CatalogError('invalid', msg, [{ loc: ['body', ...loc], msg, type }]);
  }
}
