import { describe, expect, it } from '@jest/globals';
import { getsNewOrderEmail, hasAnyRole, ORGANIZATION_MANAGERS, parseRoles } from './rules.js';

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

describe('getsNewOrderEmail', () => {
  it("follows the role's default (owners and admins) until the member chooses", () => {
    expect(getsNewOrderEmail({ role: 'owner', newOrderEmail: null })).toBe(true);
    expect(getsNewOrderEmail({ role: 'admin', newOrderEmail: null })).toBe(true);
    expect(getsNewOrderEmail({ role: 'member', newOrderEmail: null })).toBe(false);
    expect(getsNewOrderEmail({ role: 'owner', newOrderEmail: false })).toBe(false);
    expect(getsNewOrderEmail({ role: 'member', newOrderEmail: true })).toBe(true);
  });

  it('never sends it to a role that may not read orders, whatever was chosen', () => {
    expect(getsNewOrderEmail({ role: 'billing-robot', newOrderEmail: true })).toBe(false);
  });
});
