// License keys' own rules. Pure.

/** What lists show instead of the key: its last six characters. */
export const displayKeyOf = (key: string) => `****-${key.slice(-6)}`;
