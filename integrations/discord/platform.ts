// Discord for linking accounts (OAuth2 with `identify guilds.join`) and for Discord benefits (the
// deployment's bot adds members and roles). discord.com/developers/docs/resources/guild.
import {
  OAuthRefusal,
  type DiscordPlatform,
  type OAuthTokens,
} from '../../domain/customer-accounts/platforms.js';
import { callJsonApi, reasonOf, unexpectedAnswer, type JsonAnswer } from '../http/json-api.js';

export type DiscordSettings = {
  clientId: string;
  clientSecret: string;
  /** The application's bot: in the sellers' servers with Manage Roles (and Kick Members). */
  botToken: string;
  /** https://discord.com: the consent page. */
  oauthUrl: string;
  /** https://discord.com/api/v10: the API, token exchange included. */
  apiUrl: string;
};

const SERVICE = 'Discord';
/** Reads who the customer is and lets the bot add them to a server with their consent. */
const SCOPES = 'identify guilds.join';
/** Discord's JSON error codes (discord.com/developers/docs/topics/opcodes-and-status-codes). */
const UNKNOWN_MEMBER = 10007;
const INVALID_OAUTH_TOKEN = 50025;

const trimmed = (url: string) => url.replace(/\/+$/, '');
const segment = encodeURIComponent;
const codeOf = (answer: JsonAnswer) => (answer.body as { code?: number } | null)?.code;

function tokensOf(answer: JsonAnswer, what: string): OAuthTokens {
  const body = (answer.body ?? {}) as {
    access_token?: string;
    refresh_token?: string;
    expires_in?: number;
    error?: string;
  };
  // RFC 6749 §5.2: a code or refresh token that is bad, used or revoked.
  if (answer.status === 400 && body.error === 'invalid_grant') {
    throw new OAuthRefusal('discord', reasonOf(answer.body));
  }
  if (answer.status !== 200 || !body.access_token) throw unexpectedAnswer(SERVICE, what, answer);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? null,
    expiresAt: body.expires_in ? new Date(Date.now() + body.expires_in * 1000) : null,
  };
}

export function createDiscordPlatform(settings: DiscordSettings): DiscordPlatform {
  const oauthUrl = trimmed(settings.oauthUrl);
  const apiUrl = trimmed(settings.apiUrl);
  const clientAuthorization = `Basic ${Buffer.from(
    `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`,
  ).toString('base64')}`;
  const token = (form: Record<string, string>, what: string) =>
    callJsonApi({
      service: SERVICE,
      method: 'POST',
      url: `${apiUrl}/oauth2/token`,
      headers: { authorization: clientAuthorization },
      form,
    }).then((answer) => tokensOf(answer, what));
  const bot = (method: 'PUT' | 'DELETE', path: string, json?: unknown) =>
    callJsonApi({
      service: SERVICE,
      method,
      url: `${apiUrl}${path}`,
      headers: { authorization: `Bot ${settings.botToken}`, 'user-agent': 'DiscordBot (Tollgate, 1)' },
      json,
    });
  const memberPath = (guildId: string, userId: string) =>
    `/guilds/${segment(guildId)}/members/${segment(userId)}`;

  return {
    authorizeUrl({ state, redirectUri }) {
      const url = new URL(`${oauthUrl}/oauth2/authorize`);
      url.search = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: SCOPES,
        state,
      }).toString();
      return url.toString();
    },

    exchangeCode: ({ code, redirectUri }) =>
      token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }, 'the OAuth code exchange'),

    refreshTokens: (refreshToken) =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'renewing an access token'),

    async currentUser(accessToken) {
      const answer = await callJsonApi({
        service: SERVICE,
        method: 'GET',
        url: `${apiUrl}/users/@me`,
        headers: { authorization: `Bearer ${accessToken}` },
      });
      if (answer.status === 401) throw new OAuthRefusal('discord', reasonOf(answer.body));
      const user = answer.body as { id?: string; username?: string } | null;
      if (answer.status !== 200 || !user?.id)
        throw unexpectedAnswer(SERVICE, 'reading the signed-in user', answer);
      return { id: user.id, username: user.username ?? null };
    },

    async addMember({ guildId, userId, accessToken, roleId }) {
      const answer = await bot('PUT', memberPath(guildId, userId), {
        access_token: accessToken,
        roles: [roleId],
      });
      if (answer.status === 201) return 'added';
      if (answer.status === 204) return 'member';
      if (codeOf(answer) === INVALID_OAUTH_TOKEN) throw new OAuthRefusal('discord', reasonOf(answer.body));
      throw unexpectedAnswer(SERVICE, `adding user ${userId} to server ${guildId}`, answer);
    },

    async addRole(guildId, userId, roleId) {
      const answer = await bot('PUT', `${memberPath(guildId, userId)}/roles/${segment(roleId)}`);
      if (answer.status !== 204) {
        throw unexpectedAnswer(
          SERVICE,
          `giving role ${roleId} to user ${userId} on server ${guildId}`,
          answer,
        );
      }
    },

    async removeRole(guildId, userId, roleId) {
      const answer = await bot('DELETE', `${memberPath(guildId, userId)}/roles/${segment(roleId)}`);
      if (answer.status === 204 || codeOf(answer) === UNKNOWN_MEMBER) return;
      throw unexpectedAnswer(
        SERVICE,
        `taking role ${roleId} from user ${userId} on server ${guildId}`,
        answer,
      );
    },

    async removeMember(guildId, userId) {
      const answer = await bot('DELETE', memberPath(guildId, userId));
      if (answer.status === 204 || codeOf(answer) === UNKNOWN_MEMBER) return;
      throw unexpectedAnswer(SERVICE, `removing user ${userId} from server ${guildId}`, answer);
    },
  };
}
