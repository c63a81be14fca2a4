import { describe, expect, it } from '@jest/globals';
import { normalizeAddressState, subdivisionsOf } from './rules.js';

describe('normalizeAddressState', () => {
  it('writes US states and Canadian subdivisions as ISO 3166-2 codes', () => {
    expect(normalizeAddressState('US', 'CA')).toBe('US-CA');
    expect(normalizeAddressState('US', 'us-ca')).toBe('US-CA');
    expect(normalizeAddressState('us', ' ny ')).toBe('US-NY');
    expect(normalizeAddressState('US', 'DC')).toBe('US-DC');
    expect(normalizeAddressState('CA', 'qc')).toBe('CA-QC');
    expect(normalizeAddressState('CA', 'CA-YT')).toBe('CA-YT');
  });

  it('refuses what is not a US state or Canadian subdivision', () => {
    expect(normalizeAddressState('US', 'California')).toBeNull();
    expect(normalizeAddressState('US', 'US-XX')).toBeNull();
    expect(normalizeAddressState('US', 'QC')).toBeNull();
    expect(normalizeAddressState('CA', 'NY')).toBeNull();
    expect(normalizeAddressState('CA', 'US-ON')).toBeNull();
  });

  it('keeps other countries’ states as typed and empty ones as none', () => {
    expect(normalizeAddressState('DE', ' Bayern ')).toBe('Bayern');
    expect(normalizeAddressState('US', '  ')).toBeNull();
    expect(normalizeAddressState('DE', null)).toBeNull();
    expect(normalizeAddressState('FR', undefined)).toBeNull();
  });
});

describe('subdivisionsOf', () => {
  it('lists the 50 states and DC, and Canada’s 13 provinces and territories', () => {
    expect(subdivisionsOf('US')).toHaveLength(51);
    expect(subdivisionsOf(' ca ')).toHaveLength(13);
    expect(subdivisionsOf('US')?.find((state) => state.code === 'NY')?.name).toBe('New York');
  });

  it('has no list where the state is free text', () => {
    expect(subdivisionsOf('DE')).toBeNull();
  });
});
