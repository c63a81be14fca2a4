import { describe, expect, it } from '@jest/globals';
import { hasAnyRole, ORGANIZATION_MANAGERS, parseRoles } from './rules.js';

describe('parseRoles', () => {
  it('splits comma-separated roles and ignores blanks and spaces', () => {
    expect(parseRoles('member, admin,,')).toEqual(['member', 'admin']);
  });
});

describe('hasAnyRole', () => {
  it.each([
    ['owner', true],
    ['admin', true],
    ['member', false],
    ['member,admin', true],
    ['member, owner', true],
    ['billing', false],
    ['', false],
  ])('managers include %p: %p', (role, expected) => {
    expect(hasAnyRole(role, ORGANIZATION_MANAGERS)).toBe(expected);
  });

  it('does not match a role by prefix', () => {
    expect(hasAnyRole('administrator', ORGANIZATION_MANAGERS)).toBe(false);
  });
});
