// GitHub and Discord as Tollgate meets them, on this machine: their OAuth pages and token
// endpoints, the user endpoint, and the parts of their APIs that GitHub and Discord benefits use.
// Every request is checked as the real service would (credentials, headers, body, path); a request
// that breaks a rule is refused and recorded in `violations`, which tests expect to stay empty.
// State (collaborators, invitations, members, roles) is kept for tests to read.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';

const token = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  const server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Failures a test asks for: the next `count` API calls answer `status`, before or after acting. */
type Outage = { count: number; status: number; afterEffect: boolean };

type OAuthUser<Id> = { id: Id; name: string };

/** The consent page: whoever signs in next allows (or declines) the app, and the browser goes back. */
class ConsentPage<Id> {
  next: OAuthUser<Id> | null = null;
  declineNext = false;
  readonly codes = new Map<string, { user: OAuthUser<Id>; redirectUri: string }>();

  answer(req: Request, res: Response, violation: (why: string) => void, expected: { clientId: string }) {
    const { client_id, redirect_uri, state } = req.query as Record<string, string | undefined>;
    if (client_id !== expected.clientId) return violation(`authorize: client_id ${client_id}`);
    if (!redirect_uri || !state) return violation('authorize: redirect_uri and state are required');
    const back = new URL(redirect_uri);
    back.searchParams.set('state', state);
    if (this.declineNext || !this.next) {
      this.declineNext = false;
      back.searchParams.set('error', 'access_denied');
      return res.redirect(302, back.toString());
    }
    const code = token('code_');
    this.codes.set(code, { user: this.next, redirectUri: redirect_uri });
    back.searchParams.set('code', code);
    res.redirect(302, back.toString());
  }

  /** A code works once, with the redirect_uri it was issued for (RFC 6749 §4.1.3). */
  redeem(code: string | undefined, redirectUri: string | undefined): OAuthUser<Id> | null {
    const issued = code ? this.codes.get(code) : undefined;
    if (!issued || issued.redirectUri !== redirectUri) return null;
    this.codes.delete(code!);
    return issued.user;
  }
}

function outageMiddleware(outage: { current: Outage | null }) {
  return {
    /** Answers the failure instead of acting; true when it did. */
    before(res: Response): boolean {
      const current = outage.current;
      if (!current || current.afterEffect || current.count <= 0) return false;
      current.count -= 1;
      res.status(current.status).json({ message: 'Server Error' });
      return true;
    },
    /** Acts, then answers the failure (the answer is lost on the way back). */
    after(res: Response): boolean {
      const current = outage.current;
      if (!current || !current.afterEffect || current.count <= 0) return false;
      current.count -= 1;
      res.status(current.status).json({ message: 'Server Error' });
      return true;
    },
  };
}

// GitHub ------------------------------------------------------------------------------------------

export type FakeGitHubUser = { id: number; login: string };
type Invitation = { id: number; invitee: FakeGitHubUser; permissions: string };
type Repository = { collaborators: Map<string, string>; invitations: Invitation[] };

const GITHUB_PERMISSIONS = ['pull', 'triage', 'push', 'maintain', 'admin'];

export async function startFakeGitHub() {
  const clientId = 'Iv1.fakegithubclient';
  const clientSecret = token('secret_');
  const deploymentToken = token('ghp_');
  const consent = new ConsentPage<number>();
  const users = new Map<string, FakeGitHubUser>();
  const userTokens = new Map<string, FakeGitHubUser>();
  const repositories = new Map<string, Repository>();
  const violations: string[] = [];
  const outage = { current: null as Outage | null };
  const failures = outageMiddleware(outage);
  let nextInvitationId = 1;
  let invitationsCreated = 0;

  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.use(express.json());
  const refuse = (res: Response, status: number, why: string) => {
    violations.push(why);
    res.status(status).json({ message: why });
  };

  app.get('/login/oauth/authorize', (req, res) =>
    consent.answer(req, res, (why) => refuse(res, 400, why), { clientId }),
  );
  app.post('/login/oauth/access_token', (req, res) => {
    if (!req.is('application/x-www-form-urlencoded')) return refuse(res, 400, 'token: not a form');
    if (!req.get('accept')?.includes('application/json')) return refuse(res, 400, 'token: Accept JSON');
    const body = req.body as Record<string, string>;
    if (body.client_id !== clientId || body.client_secret !== clientSecret) {
      return refuse(res, 401, 'token: wrong client credentials');
    }
    const user = consent.redeem(body.code, body.redirect_uri);
    // GitHub answers a bad code with a 200.
    if (!user) {
      res.json({
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
      });
      return;
    }
    const accessToken = token('gho_');
    const login = { id: user.id, login: user.name };
    userTokens.set(accessToken, login);
    users.set(login.login, login);
    res.json({ access_token: accessToken, token_type: 'bearer', scope: '' });
  });

  const api = express.Router();
  api.use((req, res, next) => {
    if (req.get('accept') !== 'application/vnd.github+json') return refuse(res, 415, `${req.path}: Accept`);
    if (req.get('x-github-api-version') !== '2022-11-28') return refuse(res, 400, `${req.path}: API version`);
    if (!req.get('user-agent')) return refuse(res, 403, `${req.path}: no User-Agent`);
    next();
  });
  api.get('/user', (req, res) => {
    const user = userTokens.get(req.get('authorization')?.replace(/^Bearer /, '') ?? '');
    if (!user) return void res.status(401).json({ message: 'Bad credentials' });
    res.json({ id: user.id, login: user.login, type: 'User' });
  });
  api.use('/repos', (req, res, next) => {
    if (req.get('authorization') !== `Bearer ${deploymentToken}`) {
      return refuse(res, 401, `${req.method} ${req.path}: not the deployment's token`);
    }
    if (failures.before(res)) return;
    next();
  });
  const repositoryOf = (req: Request, res: Response) => {
    const repository = repositories.get(`${String(req.params.owner)}/${String(req.params.repo)}`);
    if (!repository) res.status(404).json({ message: 'Not Found' });
    return repository;
  };
  api.put('/repos/:owner/:repo/collaborators/:login', (req, res) => {
    const repository = repositoryOf(req, res);
    if (!repository) return;
    const user = users.get(String(req.params.login));
    if (!user) return void res.status(404).json({ message: 'Not Found' });
    const permission = (req.body as { permission?: string } | undefined)?.permission;
    if (!req.is('application/json') || !GITHUB_PERMISSIONS.includes(permission ?? '')) {
      return refuse(res, 422, `PUT collaborator: permission ${permission}`);
    }
    if (repository.collaborators.has(user.login)) {
      repository.collaborators.set(user.login, permission!);
      if (failures.after(res)) return;
      return void res.status(204).end();
    }
    // One pending invitation per invitee: inviting again updates it.
    let invitation = repository.invitations.find((each) => each.invitee.id === user.id);
    if (invitation) invitation.permissions = permission!;
    else {
      invitation = { id: nextInvitationId++, invitee: user, permissions: permission! };
      repository.invitations.push(invitation);
      invitationsCreated += 1;
    }
    if (failures.after(res)) return;
    res
      .status(201)
      .json({ id: invitation.id, invitee: invitation.invitee, permissions: invitation.permissions });
  });
  api.delete('/repos/:owner/:repo/collaborators/:login', (req, res) => {
    const repository = repositoryOf(req, res);
    if (!repository) return;
    repository.collaborators.delete(String(req.params.login));
    res.status(204).end();
  });
  api.get('/repos/:owner/:repo/invitations', (req, res) => {
    const repository = repositoryOf(req, res);
    if (!repository) return;
    const perPage = Number(req.query.per_page ?? 30);
    const page = Number(req.query.page ?? 1);
    res.json(repository.invitations.slice((page - 1) * perPage, page * perPage));
  });
  api.delete('/repos/:owner/:repo/invitations/:id', (req, res) => {
    const repository = repositoryOf(req, res);
    if (!repository) return;
    const before = repository.invitations.length;
    repository.invitations = repository.invitations.filter((each) => each.id !== Number(req.params.id));
    res.status(before === repository.invitations.length ? 404 : 204).end();
  });
  app.use('/api', api);
  app.use((req, res) => refuse(res, 404, `unknown GitHub path ${req.method} ${req.path}`));

  const { server, url } = await listen(app);
  const repository = (owner: string, name: string) => {
    const found = repositories.get(`${owner}/${name}`);
    if (!found) throw new Error(`the fake has no repository ${owner}/${name}`);
    return found;
  };
  return {
    url,
    /** GITHUB_* as a deployment sets them. */
    settings: {
      GITHUB_CLIENT_ID: clientId,
      GITHUB_CLIENT_SECRET: clientSecret,
      GITHUB_TOKEN: deploymentToken,
      GITHUB_OAUTH_URL: url,
      GITHUB_API_URL: `${url}/api`,
    },
    violations,
    /** Who allows the app on the consent page next. */
    signInAs(user: FakeGitHubUser) {
      users.set(user.login, user);
      consent.next = { id: user.id, name: user.login };
    },
    /** A GitHub user collaborators can be added by login, without signing in here. */
    addUser(user: FakeGitHubUser) {
      users.set(user.login, user);
    },
    declineNext() {
      consent.declineNext = true;
    },
    addRepository(owner: string, name: string) {
      repositories.set(`${owner}/${name}`, { collaborators: new Map(), invitations: [] });
    },
    collaborators: (owner: string, name: string) => Object.fromEntries(repository(owner, name).collaborators),
    invitations: (owner: string, name: string) =>
      repository(owner, name).invitations.map((each) => ({
        login: each.invitee.login,
        permission: each.permissions,
      })),
    /** Every invitation ever sent, across repositories (re-inviting updates, it does not count). */
    get invitationsCreated() {
      return invitationsCreated;
    },
    /** The user accepts on GitHub: the invitation becomes a collaborator. */
    acceptInvitation(owner: string, name: string, login: string) {
      const found = repository(owner, name);
      const invitation = found.invitations.find((each) => each.invitee.login === login);
      if (!invitation) throw new Error(`${login} has no invitation to ${owner}/${name}`);
      found.invitations = found.invitations.filter((each) => each !== invitation);
      found.collaborators.set(login, invitation.permissions);
    },
    /** The next `count` repository calls fail with `status`, before acting or after (answer lost). */
    fail(count: number, options: { status?: number; afterEffect?: boolean } = {}) {
      outage.current = { count, status: options.status ?? 502, afterEffect: options.afterEffect ?? false };
    },
    recover() {
      outage.current = null;
    },
    /** Failures asked for with `fail` that no call has met yet. */
    get failuresLeft() {
      return outage.current?.count ?? 0;
    },
    stop: () => stop(server),
  };
}

export type FakeGitHub = Awaited<ReturnType<typeof startFakeGitHub>>;

// Discord -----------------------------------------------------------------------------------------

export type FakeDiscordUser = { id: string; username: string };

const UNKNOWN_GUILD = { code: 10004, message: 'Unknown Guild' };
const UNKNOWN_MEMBER = { code: 10007, message: 'Unknown Member' };
const UNKNOWN_ROLE = { code: 10011, message: 'Unknown Role' };

export async function startFakeDiscord(options: { tokenLifetimeSeconds?: number } = {}) {
  const clientId = '1100000000000000001';
  const clientSecret = token('secret_');
  const botToken = token('bot_');
  const consent = new ConsentPage<string>();
  const accessTokens = new Map<string, FakeDiscordUser>();
  const refreshTokens = new Map<string, FakeDiscordUser>();
  const guilds = new Map<string, { roles: Set<string>; members: Map<string, Set<string>> }>();
  const violations: string[] = [];
  const outage = { current: null as Outage | null };
  const failures = outageMiddleware(outage);
  let refreshes = 0;

  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.use(express.json());
  const refuse = (res: Response, status: number, why: string) => {
    violations.push(why);
    res.status(status).json({ code: 0, message: why });
  };

  app.get('/oauth2/authorize', (req, res) => {
    const scopes = String(req.query.scope ?? '').split(' ');
    if (
      req.query.response_type !== 'code' ||
      !scopes.includes('identify') ||
      !scopes.includes('guilds.join')
    ) {
      return refuse(
        res,
        400,
        `authorize: response_type ${String(req.query.response_type)}, scope ${scopes.join(' ')}`,
      );
    }
    consent.answer(req, res, (why) => refuse(res, 400, why), { clientId });
  });

  const issue = (user: FakeDiscordUser) => {
    const access = token('dat_');
    const refresh = token('drt_');
    accessTokens.set(access, user);
    refreshTokens.set(refresh, user);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: options.tokenLifetimeSeconds ?? 604_800,
      refresh_token: refresh,
      scope: 'identify guilds.join',
    };
  };
  const api = express.Router();
  api.post('/oauth2/token', (req, res) => {
    if (!req.is('application/x-www-form-urlencoded')) return refuse(res, 400, 'token: not a form');
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    if (req.get('authorization') !== basic) return refuse(res, 401, 'token: wrong client credentials');
    const body = req.body as Record<string, string>;
    if (body.grant_type === 'authorization_code') {
      const user = consent.redeem(body.code, body.redirect_uri);
      if (!user)
        return void res
          .status(400)
          .json({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
      return void res.json(issue({ id: user.id, username: user.name }));
    }
    if (body.grant_type === 'refresh_token') {
      const user = refreshTokens.get(body.refresh_token ?? '');
      if (!user) return void res.status(400).json({ error: 'invalid_grant' });
      // Discord's refresh tokens work once.
      refreshTokens.delete(body.refresh_token!);
      refreshes += 1;
      return void res.json(issue(user));
    }
    refuse(res, 400, `token: grant_type ${body.grant_type}`);
  });
  api.get('/users/@me', (req, res) => {
    const user = accessTokens.get(req.get('authorization')?.replace(/^Bearer /, '') ?? '');
    if (!user) return void res.status(401).json({ code: 0, message: '401: Unauthorized' });
    res.json({ id: user.id, username: user.username, discriminator: '0' });
  });
  api.use('/guilds', (req, res, next) => {
    if (req.get('authorization') !== `Bot ${botToken}`)
      return refuse(res, 401, `${req.method} ${req.path}: not the bot`);
    if (!req.get('user-agent')?.startsWith('DiscordBot ')) return refuse(res, 400, `${req.path}: User-Agent`);
    if (failures.before(res)) return;
    next();
  });
  const guildOf = (req: Request, res: Response) => {
    const guild = guilds.get(String(req.params.guild));
    if (!guild) res.status(404).json(UNKNOWN_GUILD);
    return guild;
  };
  api.put('/guilds/:guild/members/:user', (req, res) => {
    const guild = guildOf(req, res);
    if (!guild) return;
    const body = req.body as { access_token?: string; roles?: string[] } | undefined;
    if (!req.is('application/json')) return refuse(res, 400, 'add member: not JSON');
    const holder = accessTokens.get(body?.access_token ?? '');
    if (!holder || holder.id !== req.params.user) {
      return void res.status(403).json({ code: 50025, message: 'Invalid OAuth2 access token' });
    }
    const roles = body?.roles ?? [];
    if (roles.some((role) => !guild.roles.has(role))) return void res.status(400).json(UNKNOWN_ROLE);
    if (guild.members.has(holder.id)) return void res.status(204).end();
    guild.members.set(holder.id, new Set(roles));
    if (failures.after(res)) return;
    res.status(201).json({ user: { id: holder.id, username: holder.username }, roles });
  });
  api.put('/guilds/:guild/members/:user/roles/:role', (req, res) => {
    const guild = guildOf(req, res);
    if (!guild) return;
    const member = guild.members.get(String(req.params.user));
    if (!member) return void res.status(404).json(UNKNOWN_MEMBER);
    if (!guild.roles.has(String(req.params.role))) return void res.status(404).json(UNKNOWN_ROLE);
    member.add(String(req.params.role));
    res.status(204).end();
  });
  api.delete('/guilds/:guild/members/:user/roles/:role', (req, res) => {
    const guild = guildOf(req, res);
    if (!guild) return;
    const member = guild.members.get(String(req.params.user));
    if (!member) return void res.status(404).json(UNKNOWN_MEMBER);
    member.delete(String(req.params.role));
    res.status(204).end();
  });
  api.delete('/guilds/:guild/members/:user', (req, res) => {
    const guild = guildOf(req, res);
    if (!guild) return;
    if (!guild.members.delete(String(req.params.user))) return void res.status(404).json(UNKNOWN_MEMBER);
    res.status(204).end();
  });
  app.use('/api/v10', api);
  app.use((req, res) => refuse(res, 404, `unknown Discord path ${req.method} ${req.path}`));

  const { server, url } = await listen(app);
  const guild = (id: string) => {
    const found = guilds.get(id);
    if (!found) throw new Error(`the fake has no server ${id}`);
    return found;
  };
  return {
    url,
    /** DISCORD_* as a deployment sets them. */
    settings: {
      DISCORD_CLIENT_ID: clientId,
      DISCORD_CLIENT_SECRET: clientSecret,
      DISCORD_BOT_TOKEN: botToken,
      DISCORD_OAUTH_URL: url,
      DISCORD_API_URL: `${url}/api/v10`,
    },
    violations,
    signInAs(user: FakeDiscordUser) {
      consent.next = { id: user.id, name: user.username };
    },
    declineNext() {
      consent.declineNext = true;
    },
    addGuild(id: string, roles: string[]) {
      guilds.set(id, { roles: new Set(roles), members: new Map() });
    },
    /** Someone already in the server (with these roles) before any grant. */
    addMember(guildId: string, userId: string, roles: string[] = []) {
      guild(guildId).members.set(userId, new Set(roles));
    },
    /** The member's roles, or null when they are not in the server. */
    rolesOf(guildId: string, userId: string) {
      const member = guild(guildId).members.get(userId);
      return member ? [...member].sort() : null;
    },
    /** How many times an access token was renewed with a refresh token. */
    get refreshes() {
      return refreshes;
    },
    fail(count: number, options: { status?: number; afterEffect?: boolean } = {}) {
      outage.current = { count, status: options.status ?? 502, afterEffect: options.afterEffect ?? false };
    },
    recover() {
      outage.current = null;
    },
    stop: () => stop(server),
  };
}

export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;

/**
 * The customer's browser: opens the platform's page from `authorize`, which sends it to Tollgate's
 * callback, which sends it back where the link started. Answers each stop's status and Location.
 */
export async function followLinkInBrowser(authorizeUrl: string) {
  const platform = await fetch(authorizeUrl, { redirect: 'manual' });
  const callback = platform.headers.get('location');
  if (platform.status !== 302 || !callback)
    throw new Error(`the platform's page answered ${platform.status}`);
  const back = await fetch(callback, { redirect: 'manual' });
  return { callback, status: back.status, location: back.headers.get('location'), body: await back.text() };
}
