import { describe, expect, it } from '@jest/globals';
import { percentageToBasisPoints, stripeTaxIdOf } from './tax.js';

describe('percentageToBasisPoints', () => {
  it.each([
    ['20.0', 2000],
    ['20', 2000],
    ['7.1', 710],
    ['8.25', 825],
    ['0.0', 0],
    ['19.000', 1900],
  ])('reads %s as %d', (percentage, basisPoints) => {
    expect(percentageToBasisPoints(percentage)).toBe(basisPoints);
  });

  it('has no whole number of basis points for finer rates or non-numbers', () => {
    expect(percentageToBasisPoints('9.875')).toBeNull();
    expect(percentageToBasisPoints('abc')).toBeNull();
    expect(percentageToBasisPoints('-5')).toBeNull();
  });
});

describe('stripeTaxIdOf', () => {
  it.each([
    ['DE', 'DE123456789', { type: 'eu_vat', value: 'DE123456789' }],
    ['de', 'de 123 456 789', { type: 'eu_vat', value: 'DE123456789' }],
    ['FR', 'FR-AB.123456789', { type: 'eu_vat', value: 'FRAB123456789' }],
    ['GR', 'EL123456789', { type: 'eu_vat', value: 'EL123456789' }],
    ['AT', 'ATU12345678', { type: 'eu_vat', value: 'ATU12345678' }],
    ['NL', 'NL123456789B01', { type: 'eu_vat', value: 'NL123456789B01' }],
    ['IE', 'IE1234567WA', { type: 'eu_vat', value: 'IE1234567WA' }],
    ['SE', 'SE123456789701', { type: 'eu_vat', value: 'SE123456789701' }],
    ['GB', 'GB 123 4567 89', { type: 'gb_vat', value: 'GB123456789' }],
    ['GB', 'XI123456789', { type: 'eu_vat', value: 'XI123456789' }],
    ['CH', 'CHE-123.456.789 MWST', { type: 'ch_vat', value: 'CHE-123.456.789 MWST' }],
    ['CH', 'che123456789tva', { type: 'ch_vat', value: 'CHE-123.456.789 TVA' }],
    ['NO', '123456789MVA', { type: 'no_vat', value: '123456789MVA' }],
    ['NO', 'NO 123 456 789 MVA', { type: 'no_vat', value: '123456789MVA' }],
    ['AU', '51 824 753 556', { type: 'au_abn', value: '51824753556' }],
  ])('reads %s %s as %o', (country, taxId, expected) => {
    expect(stripeTaxIdOf(country, taxId)).toEqual(expected);
  });

  it.each([
    ['an EU number without its prefix', 'DE', '123456789'],
    ["another member state's number", 'FR', 'DE123456789'],
    ['a Greek number with the country code', 'GR', 'GR123456789'],
    ['an EU number of the wrong length', 'DE', 'DE12345678'],
    ['a Dutch number without its B', 'NL', 'NL123456789001'],
    ['a UK number without GB', 'GB', '123456789'],
    ['a Swiss number without its suffix', 'CH', 'CHE-123.456.789'],
    ['a Norwegian number without MVA', 'NO', '123456789'],
    ['an ABN of 9 digits', 'AU', '518247535'],
    ['a US EIN (its kind is not inferred)', 'US', '12-3456789'],
    ['a Canadian BN', 'CA', '123456789'],
    ['letters', 'DE', 'not a number'],
  ])('sends nothing for %s', (_case, country, taxId) => {
    expect(stripeTaxIdOf(country, taxId)).toBeNull();
  });
});
