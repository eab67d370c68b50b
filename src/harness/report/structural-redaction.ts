/**
 * Secrets recognised by where they stand, not by value: a credential after an Authorization / X-API-Key
 * header name (Playwright's call log prints request headers), and the value of a token field in JSON
 * (escaped or not), a form body or a query string. These need no knowledge of the run's secrets, so they
 * also catch a token the harness never saw (a target's own, a second token in a redirect).
 */

const SCHEMES = 'Bearer|Basic|Digest|Token|Negotiate|DPoP|MAC|ApiKey';
/** A credential: token characters only, long enough not to be a word, never an already redacted value. */
const CREDENTIAL = '[A-Za-z0-9._~+/=%-]{6,}';

const PATTERNS: RegExp[] = [
  // authorization: Bearer X  |  "authorization": "Basic X"  |  authorization=Bearer%20X
  new RegExp(`(\\b(?:proxy-)?authorization\\\\*["']?\\s*(?:[:=]|%3A|%3D)\\s*\\\\*["']?\\s*(?:${SCHEMES})(?:\\s+|%20|\\+))(${CREDENTIAL})`, 'gi'),
  // an Authorization value without a scheme: only a long opaque value counts
  new RegExp(`(\\b(?:proxy-)?authorization\\\\*["']?\\s*[:=]\\s*\\\\*["']?\\s*)(?!(?:${SCHEMES})\\b)([A-Za-z0-9._~+/=-]{20,})`, 'gi'),
  new RegExp(`(\\bx-api-key\\\\*["']?\\s*(?:[:=]|%3A|%3D)\\s*\\\\*["']?\\s*)(${CREDENTIAL})`, 'gi'),
  // "access_token":"X"  |  \"refresh_token\":\"X\"  |  client_secret=X  |  code_verifier%3DX
  new RegExp(`(\\b(?:access_token|refresh_token|id_token|client_secret|code_verifier|api_key|password)\\\\*["']?\\s*(?:[:=]|%3A|%3D)\\s*\\\\*["']?)(${CREDENTIAL})`, 'gi'),
  // ?code=X / &code=X (an authorization code in a redirect or token request; `code` alone is too common)
  new RegExp(`([?&](?:code|state_token)=)(${CREDENTIAL})`, 'g'),
];

export const STRUCTURAL_MARK = '[REDACTED]';

/** Replaces every structurally recognised credential with [REDACTED] (already redacted values stay). */
export function redactStructural(text: string): string {
  let out = text;
  for (const p of PATTERNS) out = out.replace(p, (_m, head: string) => `${head}${STRUCTURAL_MARK}`);
  return out;
}

/** Does the text hold a structurally recognised credential that is not redacted? Returns the field's kind. */
export function findStructural(text: string): string | undefined {
  for (const p of PATTERNS) {
    p.lastIndex = 0;
    for (const m of text.matchAll(p)) {
      const value = m[2] ?? '';
      // Redaction leaves "[REDACTED…]"; a template placeholder or ellipsis is not a credential.
      if (/^\.+$|^%5B|REDACTED/i.test(value)) continue;
      return (m[1] ?? '').replace(/[^A-Za-z_-].*$/s, '').toLowerCase() || 'credential';
    }
  }
  return undefined;
}
