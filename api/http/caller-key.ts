import type { Caller } from '../../domain/access/rules.js';

/** Whose quota and whose idempotency keys a request uses: the token, or the signed-in user. */
export function callerKey(caller: Caller): string {
  return caller.kind === 'organization_access_token' ? `token:${caller.tokenId}` : `user:${caller.userId}`;
}
