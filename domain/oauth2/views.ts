import type { ClientRow } from './repository.js';

/** A client's metadata and registration details (RFC 7591 §3.2.1, RFC 7592 §3), without secrets. */
export function clientView(row: ClientRow, registrationClientUri: string) {
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    client_id: row.clientId,
    client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
    client_secret_expires_at: 0,
    registration_client_uri: registrationClientUri,
    redirect_uris: row.redirectUris,
    token_endpoint_auth_method: row.tokenEndpointAuthMethod as
      'client_secret_basic' | 'client_secret_post' | 'none',
    grant_types: row.grantTypes,
    response_types: row.responseTypes,
    scope: row.scopes.join(' '),
    client_name: row.clientName,
    client_uri: row.clientUri,
    logo_uri: row.logoUri,
    tos_uri: row.tosUri,
    policy_uri: row.policyUri,
    default_sub_type: row.defaultSubType as 'user' | 'organization',
  };
}

export function clientPublicView(row: ClientRow) {
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    client_id: row.clientId,
    client_name: row.clientName,
    client_uri: row.clientUri,
    logo_uri: row.logoUri,
    tos_uri: row.tosUri,
    policy_uri: row.policyUri,
  };
}

/**
 * RFC 8414 metadata, at `/.well-known/oauth-authorization-server`. The authorization endpoint is the
 * consent page of the web app, which reads `GET /v1/oauth2/authorize`, as Polar's is.
 */
export function authorizationServerMetadata(baseUrl: string, scopes: readonly string[]) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}/oauth2/authorize`,
    token_endpoint: `${baseUrl}/v1/oauth2/token`,
    registration_endpoint: `${baseUrl}/v1/oauth2/register`,
    revocation_endpoint: `${baseUrl}/v1/oauth2/revoke`,
    introspection_endpoint: `${baseUrl}/v1/oauth2/introspect`,
    userinfo_endpoint: `${baseUrl}/v1/oauth2/userinfo`,
    scopes_supported: scopes,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'web'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256', 'plain'],
    service_documentation: `${baseUrl}/api-reference`,
  };
}
