/** Building the Principal (context.ts) from the identity data: entities from the user, readOnly from the client. */
import type { Principal, ReferenceContext } from '../context.js';
import type { OAuthClientRecord, UserRecord } from '../data/types.js';

export function findUser(ctx: ReferenceContext, email: string): UserRecord | undefined {
  return ctx.data.users.find((u) => u.email === email);
}

export function findClient(ctx: ReferenceContext, clientId: string): OAuthClientRecord | undefined {
  return ctx.data.clients.find((c) => c.clientId === clientId);
}

/**
 * The principal for `userEmail` acting through `clientId` (null for API keys), or undefined when the user or
 * client no longer exists in the data (the credential is then treated as invalid).
 */
export function buildPrincipal(
  ctx: ReferenceContext,
  userEmail: string,
  clientId: string | null,
  via: Principal['via'],
): Principal | undefined {
  const user = findUser(ctx, userEmail);
  if (user === undefined) return undefined;
  let readOnly = false;
  if (clientId !== null) {
    const client = findClient(ctx, clientId);
    if (client === undefined) return undefined;
    readOnly = client.readOnly;
  }
  return { userEmail: user.email, clientId, via, allowedEntities: [...user.entities], readOnly };
}
