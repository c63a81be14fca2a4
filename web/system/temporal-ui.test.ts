import { describe, expect, it } from '@jest/globals';
import { temporalWorkflowUrl } from './temporal-ui';

describe('temporalWorkflowUrl', () => {
  it("links to the workflow's page in its namespace, with the id encoded", () => {
    expect(temporalWorkflowUrl('http://localhost:8233', 'default', 'subscription:5f0c')).toBe(
      'http://localhost:8233/namespaces/default/workflows/subscription%3A5f0c',
    );
  });

  it('keeps a UI served under a path and drops its trailing slashes', () => {
    expect(temporalWorkflowUrl('https://ops.example.com/temporal//', 'billing prod', 'a/b?c#d')).toBe(
      'https://ops.example.com/temporal/namespaces/billing%20prod/workflows/a%2Fb%3Fc%23d',
    );
  });
});
