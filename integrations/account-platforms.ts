// GitHub and Discord as a deployment configures them: a platform without its settings is null, and
// linking to it or granting its benefits says it is not configured.
import type { Config } from '../config/config.js';
import type { AccountPlatforms } from '../domain/customer-accounts/platforms.js';
import { createDiscordPlatform } from './discord/platform.js';
import { createGitHubPlatform } from './github/platform.js';

export type AccountPlatformsConfig = Pick<
  Config,
  | 'GITHUB_CLIENT_ID'
  | 'GITHUB_CLIENT_SECRET'
  | 'GITHUB_TOKEN'
  | 'GITHUB_OAUTH_URL'
  | 'GITHUB_API_URL'
  | 'DISCORD_CLIENT_ID'
  | 'DISCORD_CLIENT_SECRET'
  | 'DISCORD_BOT_TOKEN'
  | 'DISCORD_OAUTH_URL'
  | 'DISCORD_API_URL'
>;

export function createAccountPlatforms(config: AccountPlatformsConfig): AccountPlatforms {
  return {
    github:
      config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET && config.GITHUB_TOKEN
        ? createGitHubPlatform({
            clientId: config.GITHUB_CLIENT_ID,
            clientSecret: config.GITHUB_CLIENT_SECRET,
            token: config.GITHUB_TOKEN,
            oauthUrl: config.GITHUB_OAUTH_URL,
            apiUrl: config.GITHUB_API_URL,
          })
        : null,
    discord:
      config.DISCORD_CLIENT_ID && config.DISCORD_CLIENT_SECRET && config.DISCORD_BOT_TOKEN
        ? createDiscordPlatform({
            clientId: config.DISCORD_CLIENT_ID,
            clientSecret: config.DISCORD_CLIENT_SECRET,
            botToken: config.DISCORD_BOT_TOKEN,
            oauthUrl: config.DISCORD_OAUTH_URL,
            apiUrl: config.DISCORD_API_URL,
          })
        : null,
  };
}
