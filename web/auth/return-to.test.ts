import { describe, expect, it } from '@jest/globals';
import { carryReturnTo, returnToSearchSchema } from './return-to';

describe('returnToSearchSchema', () => {
  it("keeps a path of this site, query and all (an app's consent request)", () => {
    const consent =
      '/oauth2/authorize?client_id=tollgate_ci_x&state=st-1&redirect_uri=https%3A%2F%2Fa.test%2Fcb';
    expect(returnToSearchSchema.parse({ return_to: consent })).toEqual({ return_to: consent });
  });

  it('drops another site, which browsers read into //host and /\\host, and anything not a path', () => {
    for (const returnTo of [
      '//evil.test/x',
      '/\\evil.test',
      'https://evil.test/',
      'javascript:alert(1)',
      42,
    ]) {
      expect(returnToSearchSchema.parse({ return_to: returnTo })).toEqual({ return_to: undefined });
    }
  });

  it('carries it on only when there is one', () => {
    expect(carryReturnTo(undefined)).toEqual({});
    expect(carryReturnTo('/oauth2/authorize?x=1')).toEqual({ return_to: '/oauth2/authorize?x=1' });
  });
});
