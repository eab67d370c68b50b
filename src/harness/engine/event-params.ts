/**
 * GET /event's page-size parameter: the spec names `limit` in its examples, but "further filter parameters
 * of GET /event: not shown" lets a target call it otherwise (profile fields.event_limit_param). Scenarios
 * and properties write `limit`; this is the one place it becomes the target's name.
 */
export const SPEC_LIMIT_PARAM = 'limit';

/** Renames `limit` in the query of a {base_url}/event request to the target's parameter name. */
export function applyEventLimitParam(url: URL, apiBasePath: string, limitParam: string | undefined): void {
  if (!limitParam || limitParam === SPEC_LIMIT_PARAM) return;
  const rel = url.pathname.slice(apiBasePath.replace(/\/+$/, '').length).replace(/\/+$/, '');
  if (rel !== '/event' || !url.searchParams.has(SPEC_LIMIT_PARAM)) return;
  const values = url.searchParams.getAll(SPEC_LIMIT_PARAM);
  url.searchParams.delete(SPEC_LIMIT_PARAM);
  for (const v of values) url.searchParams.append(limitParam, v);
}
