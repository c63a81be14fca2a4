import type { FormWords } from '../forms/messages';
import { EMAIL_WORDS, nameWords, URL_WORDS } from '../forms/words';

/** `/v1/organizations` takes names of up to 255 characters; the dashboard holds Better Auth's calls to it. */
export const ORGANIZATION_NAME_MAX_LENGTH = 255;
/** The payments API's slug rule (domain/organizations/schemas.ts): 3 to 64 characters. */
export const SLUG_MAX_LENGTH = 64;
/** URLs and emails as the payments API takes them. */
export const URL_MAX_LENGTH = 2048;
export const EMAIL_MAX_LENGTH = 320;

/**
 * An organization's fields, named as both APIs name them: Better Auth's camelCase body
 * (`[body.slug]`) and the payments API's snake_case one (`avatar_url`).
 */
export const ORGANIZATION_WORDS: FormWords = {
  name: nameWords('name', { max: ORGANIZATION_NAME_MAX_LENGTH }),
  slug: {
    too_small: 'Enter a slug of at least 3 characters.',
    too_big: `Enter at most ${SLUG_MAX_LENGTH} characters.`,
    other: 'A slug is lowercase letters, digits and hyphens, such as acme-tools.',
  },
  avatar_url: URL_WORDS,
  logo: URL_WORDS,
  website: URL_WORDS,
  email: EMAIL_WORDS,
  // An unknown zone keeps the API's sentence, which names it.
  time_zone: { too_small: 'Choose a time zone.', too_big: 'Choose a time zone from the list.' },
  'socials.*.url': URL_WORDS,
  'socials.*.platform': { other: 'Choose a platform.' },
};

/** Better Auth's own refusals of an organization's create or update. */
export const ORGANIZATION_CODES = {
  ORGANIZATION_SLUG_ALREADY_TAKEN: { field: 'slug', message: 'This slug is taken. Choose another.' },
  ORGANIZATION_ALREADY_EXISTS: { field: 'slug', message: 'This slug is taken. Choose another.' },
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: {
    field: null,
    message: 'You belong to as many organizations as this server allows.',
  },
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: {
    field: null,
    message: 'This server does not let you create organizations.',
  },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: {
    field: null,
    message: 'Only owners and admins can change these settings.',
  },
};

/**
 * Better Auth sets no length on team names; the dashboard keeps them to an organization name's,
 * one line of a list.
 */
export const TEAM_NAME_MAX_LENGTH = ORGANIZATION_NAME_MAX_LENGTH;

export const TEAM_WORDS: FormWords = { name: nameWords('team name', { max: TEAM_NAME_MAX_LENGTH }) };

export const TEAM_CODES = {
  TEAM_ALREADY_EXISTS: { field: 'name', message: 'A team of this name exists already.' },
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: {
    field: null,
    message: 'The organization has as many teams as it may have.',
  },
};
