// What linking an account and granting GitHub and Discord benefits ask of those platforms;
// integrations/github/ and integrations/discord/ implement it over their HTTP APIs. A platform a
// deployment has no settings for is `null`.

import type { AccountPlatform, GithubPermission } from './schemas.js';

export type OAuthTokens = {
  accessToken: string;
  refreshToken: string | null;
  /** When the access token stops working; null when it does not expire (GitHub's OAuth apps). */
  expiresAt: Date | null;
};

/** The platform's user an access token belongs to. */
export type PlatformUser = { id: string; username: string | null };

/** OAuth 2's authorization-code flow, as far as linking needs it. */
export type OAuthProvider = {
  /** Where the customer's browser goes to allow the link. */
  authorizeUrl(input: { state: string; redirectUri: string }): string;
  /** Throws `OAuthRefusal` when the platform refuses the code (used, expired, forged). */
  exchangeCode(input: { code: string; redirectUri: string }): Promise<OAuthTokens>;
  currentUser(accessToken: string): Promise<PlatformUser>;
};

export type GitHubRepository = { owner: string; name: string };

export type GitHubPlatform = OAuthProvider & {
  /**
   * Gives the user `permission` on the repository with the deployment's token: `invited` when
   * GitHub sent (or re-sent) an invitation, `collaborator` when they already were one (their
   * permission changed to this).
   */
  addCollaborator(
    repository: GitHubRepository,
    login: string,
    permission: GithubPermission,
  ): Promise<'invited' | 'collaborator'>;
  removeCollaborator(repository: GitHubRepository, login: string): Promise<void>;
  /** Withdraws the user's pending invitations to the repository; answers how many there were. */
  withdrawInvitations(repository: GitHubRepository, userId: string): Promise<number>;
};

export type DiscordPlatform = OAuthProvider & {
  /** Throws `OAuthRefusal` when Discord no longer takes the refresh token (the link was revoked). */
  refreshTokens(refreshToken: string): Promise<OAuthTokens>;
  /**
   * Adds the user to the server with the role, through their own token (`guilds.join`):
   * `added`, or `member` when they already were one (Discord then ignores the role).
   */
  addMember(input: {
    guildId: string;
    userId: string;
    accessToken: string;
    roleId: string;
  }): Promise<'added' | 'member'>;
  addRole(guildId: string, userId: string, roleId: string): Promise<void>;
  /** Nothing to do when the user left the server already. */
  removeRole(guildId: string, userId: string, roleId: string): Promise<void>;
  /** Nothing to do when the user left the server already. */
  removeMember(guildId: string, userId: string): Promise<void>;
};

export type AccountPlatforms = { github: GitHubPlatform | null; discord: DiscordPlatform | null };

/** A deployment without GitHub or Discord settings. */
export const NO_ACCOUNT_PLATFORMS: AccountPlatforms = { github: null, discord: null };

/** The platform refused a code or a refresh token: the customer has to link again. */
export class OAuthRefusal extends Error {
  constructor(
    readonly platform: AccountPlatform,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthRefusal';
  }
}
