/** Short, redacted body excerpts for failure messages (never more than 300 characters). */
export const EXCERPT_CHARS = 300;

export type Redact = (text: string) => string;
export const identity: Redact = (s) => s;

export function excerpt(text: string, redact: Redact = identity, max = EXCERPT_CHARS): string {
  const clean = redact(text).replace(/\s+/g, ' ').trim();
  if (clean === '') return '(empty body)';
  return clean.length > max ? `${clean.slice(0, max)}… (${clean.length} chars)` : clean;
}

/** "GET http://…/event?limit=2 → 200" with the URL redacted (query strings can carry secrets). */
export function describeExchange(r: { method: string; url: string; status?: number }, redact: Redact = identity): string {
  return `${r.method} ${redact(r.url)}${r.status !== undefined ? ` → ${r.status}` : ''}`;
}
