// Billing addresses' country-specific rules, pure: which countries have a fixed list of states
// (the US and Canada, where tax depends on them) and how a typed state reads as its ISO 3166-2 code.

export type Subdivision = { code: string; name: string };

/** The 50 states and DC, as Polar accepts them (ISO 3166-2:US without the prefix). */
const US_STATES: readonly Subdivision[] = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
].map(([code, name]) => ({ code: code!, name: name! }));

/** Canada's provinces and territories (ISO 3166-2:CA without the prefix). */
const CA_PROVINCES: readonly Subdivision[] = [
  ['AB', 'Alberta'],
  ['BC', 'British Columbia'],
  ['MB', 'Manitoba'],
  ['NB', 'New Brunswick'],
  ['NL', 'Newfoundland and Labrador'],
  ['NT', 'Northwest Territories'],
  ['NS', 'Nova Scotia'],
  ['NU', 'Nunavut'],
  ['ON', 'Ontario'],
  ['PE', 'Prince Edward Island'],
  ['QC', 'Quebec'],
  ['SK', 'Saskatchewan'],
  ['YT', 'Yukon'],
].map(([code, name]) => ({ code: code!, name: name! }));

const SUBDIVISIONS: Readonly<Record<string, readonly Subdivision[]>> = { US: US_STATES, CA: CA_PROVINCES };

/** The states a country's addresses must name, or null where the state is free text. */
export function subdivisionsOf(country: string): readonly Subdivision[] | null {
  return SUBDIVISIONS[country.trim().toUpperCase()] ?? null;
}

/** What the buyer calls the state field in that country. */
export function subdivisionLabel(country: string): string {
  const upper = country.trim().toUpperCase();
  if (upper === 'US') return 'State';
  if (upper === 'CA') return 'Province or territory';
  return 'State / province';
}

/** The refusal of a state that is not one of the country's (Polar's wording). */
export function invalidSubdivisionMessage(country: string): string {
  return country.trim().toUpperCase() === 'US' ? 'Invalid US state.' : 'Invalid CA subdivision.';
}

/**
 * A state as Polar stores it: `US-CA`, `CA-QC` (the ISO 3166-2 code) for the US and Canada, whether
 * typed `ca`, `CA` or `US-CA`; as typed (trimmed) elsewhere; null when empty or not a US state or
 * Canadian subdivision.
 */
export function normalizeAddressState(country: string, state: string | null | undefined): string | null {
  const trimmed = state?.trim() ?? '';
  if (trimmed === '') return null;
  const upperCountry = country.trim().toUpperCase();
  const known = subdivisionsOf(upperCountry);
  if (!known) return trimmed;
  const code = trimmed.toUpperCase().replace(new RegExp(`^${upperCountry}-`), '');
  return known.some((subdivision) => subdivision.code === code) ? `${upperCountry}-${code}` : null;
}
