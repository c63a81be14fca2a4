// GitHub for linking accounts (an OAuth app) and for GitHub repository benefits (the
// collaborators API with the deployment's token). docs.github.com/rest/collaborators.
import {
  OAuthRefusal,
  type GitHubPlatform,
  type GitHubRepository,
} from '../../domain/customer-accounts/platforms.js';
import { callJsonApi, reasonOf, unexpectedAnswer } from '../http/json-api.js';

export type GitHubSettings = {
  clientId: string;
  clientSecret: string;
  /** Adds and removes collaborators: repository administration on the sellers' repositories. */
  token: string;
  /** https://github.com, or a GitHub Enterprise Server's address. */
  oauthUrl: string;
  /** https://api.github.com, or `<server>/api/v3`. */
  apiUrl: string;
};

const SERVICE = 'GitHub';
/** Invitations are listed this many at a time (GitHub's largest page). */
const PAGE_SIZE = 100;

const trimmed = (url: string) => url.replace(/\/+$/, '');
const segment = encodeURIComponent;
const repositoryPath = (repository: GitHubRepository) =>
  `/repos/${segment(repository.owner)}/${segment(repository.name)}`;

export function createGitHubPlatform(settings: GitHubSettings): GitHubPlatform {
  const oauthUrl = trimmed(settings.oauthUrl);
  const apiUrl = trimmed(settings.apiUrl);
  const api = (method: 'GET' | 'PUT' | 'DELETE', path: string, token: string, json?: unknown) =>
    callJsonApi({
      service: SERVICE,
      method,
      url: `${apiUrl}${path}`,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'x-github-api-version': '2022-11-28',
        // GitHub refuses requests without one.
        'user-agent': 'Tollgate',
      },
      json,
    });

  return {
    authorizeUrl({ state, redirectUri }) {
      const url = new URL(`${oauthUrl}/login/oauth/authorize`);
      // No scope: the public profile (id and login) is all a collaborator invitation needs.
      url.search = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        state,
      }).toString();
      return url.toString();
    },

    async exchangeCode({ code, redirectUri }) {
      const answer = await callJsonApi({
        service: SERVICE,
        method: 'POST',
        url: `${oauthUrl}/login/oauth/access_token`,
        headers: { 'user-agent': 'Tollgate' },
        form: {
          client_id: settings.clientId,
          client_secret: settings.clientSecret,
          code,
          redirect_uri: redirectUri,
        },
      });
      // GitHub says a code is bad with a 200 and an `error` field.
      const body = (answer.body ?? {}) as { access_token?: string; error?: string };
      if (answer.status === 200 && body.error) throw new OAuthRefusal('github', reasonOf(answer.body));
      if (answer.status !== 200 || !body.access_token) {
        throw unexpectedAnswer(SERVICE, 'the OAuth code exchange', answer);
      }
      return { accessToken: body.access_token, refreshToken: null, expiresAt: null };
    },

    async currentUser(accessToken) {
      const answer = await api('GET', '/user', accessToken);
      if (answer.status === 401) throw new OAuthRefusal('github', reasonOf(answer.body));
      const user = answer.body as { id?: number; login?: string } | null;
      if (answer.status !== 200 || !user?.id || !user.login) {
        throw unexpectedAnswer(SERVICE, 'reading the signed-in user', answer);
      }
      return { id: String(user.id), username: user.login };
    },

    async addCollaborator(repository, login, permission) {
      const path = `${repositoryPath(repository)}/collaborators/${segment(login)}`;
      const answer = await api('PUT', path, settings.token, { permission });
      if (answer.status === 201) return 'invited';
      if (answer.status === 204) return 'collaborator';
      throw unexpectedAnswer(SERVICE, `adding ${login} to ${repository.owner}/${repository.name}`, answer);
    },

    async removeCollaborator(repository, login) {
      const path = `${repositoryPath(repository)}/collaborators/${segment(login)}`;
      const answer = await api('DELETE', path, settings.token);
      if (answer.status !== 204) {
        throw unexpectedAnswer(
          SERVICE,
          `removing ${login} from ${repository.owner}/${repository.name}`,
          answer,
        );
      }
    },

    async withdrawInvitations(repository, userId) {
      const pending: number[] = [];
      for (let page = 1; ; page += 1) {
        const answer = await api(
          'GET',
          `${repositoryPath(repository)}/invitations?per_page=${PAGE_SIZE}&page=${page}`,
          settings.token,
        );
        if (answer.status !== 200 || !Array.isArray(answer.body)) {
          throw unexpectedAnswer(
            SERVICE,
            `listing the invitations of ${repository.owner}/${repository.name}`,
            answer,
          );
        }
        const invitations = answer.body as { id: number; invitee: { id: number } | null }[];
        pending.push(
          ...invitations.filter((each) => String(each.invitee?.id) === userId).map((each) => each.id),
        );
        if (invitations.length < PAGE_SIZE) break;
      }
      for (const id of pending) {
        const answer = await api('DELETE', `${repositoryPath(repository)}/invitations/${id}`, settings.token);
        // Accepted or withdrawn meanwhile: gone either way.
        if (answer.status !== 204 && answer.status !== 404) {
          throw unexpectedAnswer(
            SERVICE,
            `withdrawing an invitation to ${repository.owner}/${repository.name}`,
            answer,
          );
        }
      }
      return pending.length;
    },
  };
}
