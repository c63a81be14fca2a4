import { describe, expect, it } from '@jest/globals';
import { describeExpiry, describeUsage, maskLicenseKey, signedMoney } from './format';

describe('maskLicenseKey', () => {
  it('hides all but the last four characters', () => {
    const key = 'TOLLGATE-6D1A2B3C-4F2A';
    const masked = maskLicenseKey(key);
    expect(masked.endsWith('4F2A')).toBe(true);
    expect(masked).not.toContain('6D1A');
    expect(masked).toHaveLength(key.length);
  });

  it('keeps a short key hidden behind at least four dots and a long one within 28 characters', () => {
    expect(maskLicenseKey('ABCDE')).toBe('••••BCDE');
    expect(maskLicenseKey('X'.repeat(80))).toHaveLength(28);
  });
});

describe('describeUsage', () => {
  it('counts against the limit when there is one', () => {
    expect(describeUsage({ usage: 3, limit_usage: 10 })).toBe('3 of 10 uses');
    expect(describeUsage({ usage: 1, limit_usage: null })).toBe('Used once');
    expect(describeUsage({ usage: 0, limit_usage: null })).toBe('Used 0 times');
  });
});

describe('describeExpiry', () => {
  it('says whether the date is past', () => {
    expect(describeExpiry(null)).toBe('Never expires');
    expect(describeExpiry('2000-01-01T00:00:00Z')).toMatch(/^Expired on /);
    expect(describeExpiry(new Date(Date.now() + 86_400_000).toISOString())).toMatch(/^Expires on /);
  });
});

describe('signedMoney', () => {
  it('writes a credit with a minus sign', () => {
    expect(signedMoney(-500, 'usd')).toMatch(/^−\$5\.00$/);
    expect(signedMoney(1250, 'usd')).toMatch(/^\$12\.50$/);
  });
});
