/**
 * What expressions may see of the target profile as `target.*`: names, codes, paths, timeouts. Never a
 * secret: credentials are listed by name with their kind and client_id (public OAuth identifiers) only.
 */
import type { ResolvedTarget } from '../target/types.js';
import { ISSUANCE_WATCH_DEFAULT_S } from '../target/bounds.js';

export function targetView(t: ResolvedTarget): Record<string, unknown> {
  return {
    name: t.name,
    environment: t.environment,
    base_url: t.baseUrl,
    auth_url: t.authUrl,
    control_url: t.controlUrl ?? null,
    entities: { allowed: [...t.entities.allowed], forbidden: t.entities.forbidden ?? null },
    indications: { ...t.indications },
    /** Optional roles the target has no product for (profile `role: null`). */
    paths: { ...t.paths },
    fields: { ...t.fields },
    /** JSON pointers to records in responses: pointer(response.body, target.records.indication). */
    records: { ...t.records },
    webhook: { delete_body: t.webhook.deleteBody },
    /** Request shapes the spec leaves open: {in, name}; requests use them through `shape:` (engine/shapes.ts). */
    shapes: Object.fromEntries(Object.entries(t.shapes).map(([k, s]) => [k, { in: s.in, name: s.name ?? null }])),
    /** How each list is paged: its kind (the walk reads the rest from the profile). */
    paging: Object.fromEntries(Object.entries(t.paging).map(([k, p]) => [k, p.kind])),
    capabilities: [...t.capabilities].sort(),
    credentials: Object.fromEntries(
      Object.values(t.credentials).map((c) => [c.name, { name: c.name, kind: c.kind, client_id: c.clientId ?? null, registered_redirect_uris: c.registeredRedirectUris ?? null }]),
    ),
    /** The target's own timing (clock-less forms); null = not declared. */
    timing: {
      short_lived_token_max_s: t.timing.shortLivedTokenMaxS ?? null,
      expiry_leeway_s: t.timing.expiryLeewayS,
      uid_rotation_max_s: t.timing.uidRotationMaxS ?? null,
      issuance_watch_s: t.timing.issuanceWatchS ?? ISSUANCE_WATCH_DEFAULT_S,
    },
    timeouts: {
      request_ms: t.timeouts.requestMs,
      poll_interval_ms: t.timeouts.pollIntervalMs,
      poll_deadline_ms: t.timeouts.pollDeadlineMs,
      max_pages: t.timeouts.maxPages,
      max_list_pages: t.timeouts.maxListPages,
    },
  };
}
