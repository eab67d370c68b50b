/** Shared response-body handling of the transports: JSON detection and parsing, header normalisation. */

/** JSON when the content type says so or the body starts like JSON; otherwise `json: undefined` + jsonError. */
export function parseBody(text: string, contentType: string | undefined): { json: unknown; jsonError?: string } {
  const trimmed = text.trimStart();
  if (trimmed === '') return { json: undefined };
  const looksJson = /[/+]json\b/i.test(contentType ?? '') || trimmed.startsWith('{') || trimmed.startsWith('[');
  if (!looksJson) return { json: undefined, jsonError: `body is not JSON (content-type: ${contentType ?? 'none'})` };
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (err) {
    return { json: undefined, jsonError: `invalid JSON: ${(err as Error).message}` };
  }
}

/** Lower-cased header names; repeated headers joined with ", " (set-cookie with "\n", it may contain commas). */
export function normaliseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    out[key] = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}
