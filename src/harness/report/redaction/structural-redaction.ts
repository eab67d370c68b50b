/**
 * Secrets recognised by where they stand, not by value: a credential after an Authorization / X-API-Key
 * header name (Playwright's call log prints request headers), any `Bearer <credential>`, and the value of a
 * token field in JSON (escaped or not), a form body or a query string. These need no knowledge of the run's
 * secrets, so they also catch a token the harness never saw (a target's own, a second token in a redirect),
 * a token shorter than the redactor's MIN_SECRET_LENGTH and one of any alphabet (Laravel Sanctum's
 * `7|<40 chars>`). The Redactor (workers), the redacting reporter and the leak scan use these same rules, so
 * whatever the scan recognises, the redaction removed.
 *
 * What counts as the credential: after a header name or `Bearer`, everything up to whitespace, a quote, a
 * backslash or `<`/`>`; in plain JSON, the whole string value (escapes included); in a form or query (the
 * key after `?`, `&`, `%26`, whitespace or a quote) or in escaped JSON (quoted key and value), everything up to `&`, `#`, `,`, `;`, a closing bracket, whitespace, a quote or a backslash
(and not a bare `null`/`true`/`false`); an unquoted `key: value` of a log line counts from 6 token
 * characters (minified code like `{password:e}` is not a credential). Not a credential: an already
 * redacted value (`[REDACTED…`), and after a standalone `Bearer` a lowercase word of prose ("the Bearer
 * scheme", `Bearer realm="…"`): a standalone all-lowercase token of up to 16 letters is only redacted where a
 * header name or a token field anchors it.
 */

const SCHEMES = 'Bearer|Basic|Digest|Token|Negotiate|DPoP|MAC|ApiKey';
/**
 * Not a credential: what redaction leaves behind (raw, URL-encoded, HTML-escaped), the environment variable
 * reference a curl line puts in a secret's place (`${FTF_PRIMARY_CLIENT_SECRET}`, `$FTF_ACCESS_TOKEN`), or a
 * placeholder in angle brackets written escaped (`&lt;API_KEY&gt;`, `\\u003c…`, `%3C…`): a scenario's description
 * quoting the spec ("Authorization: Bearer <API_KEY>") as the Allure HTML renders it. A raw `<` already ends a value.
 */
const NOT_REDACTED = '(?!\\[REDACTED|%5BREDACTED|&#91;REDACTED|\\\\u005bREDACTED|&lt;|&#0*60;|&#[xX]0*3[cC];|\\\\u003[cC]|%3[cC]|\\$\\{?[A-Z_][A-Z0-9_]*\\}?(?![^\\s"\'\\\\<>&#,;)\\]}]))';
/** A header credential: up to whitespace, a quote, a backslash or an angle bracket. */
const HEADER_VALUE = `${NOT_REDACTED}[^\\s"'\\\\<>]+`;
/** A field value in a form, query or escaped JSON: also ends at & # , ; ) ] }, and is never a bare JSON literal. */
const FIELD_VALUE = `${NOT_REDACTED}(?!(?:null|true|false)(?![^\\s,;)\\]}]))[^\\s"'\\\\<>&#,;)\\]}]+`;
const TOKEN_FIELDS = 'access_token|refresh_token|id_token|client_secret|code_verifier|api_key|password';

const PATTERNS: RegExp[] = [
  // authorization: Bearer X  |  "authorization": "Basic X"  |  authorization=Bearer%20X  (any length, any alphabet)
  new RegExp(`(\\b(?:proxy-)?authorization\\\\*["']?\\s*(?:[:=]|%3A|%3D)\\s*\\\\*["']?\\s*(?:${SCHEMES})(?:[ \\t]+|%20|\\+))(${HEADER_VALUE})`, 'gi'),
  // an Authorization value without a scheme: only a long opaque value counts
  new RegExp(`(\\b(?:proxy-)?authorization\\\\*["']?\\s*[:=]\\s*\\\\*["']?\\s*)(?!(?:${SCHEMES})\\b)(${NOT_REDACTED}[A-Za-z0-9._~+/=|-]{20,})`, 'gi'),
  new RegExp(`(\\bx-api-key\\\\*["']?\\s*(?:[:=]|%3A|%3D)\\s*\\\\*["']?\\s*)(${HEADER_VALUE})`, 'gi'),
  // Bearer X anywhere (a HAR header value, a message): not a lowercase word of prose
  new RegExp(`(\\bBearer(?:[ \\t]+|%20))(?![a-z]{1,16}[.,;:!?)=\\]}]*(?![^\\s"'\\\\<>]))(${HEADER_VALUE})`, 'g'),
  // "access_token": "X"  (plain JSON: the whole string value, escapes included; any length)
  new RegExp(`("(?:${TOKEN_FIELDS})"\\s*:\\s*")(${NOT_REDACTED}(?:[^"\\\\\\n]|\\\\.)+)(?=")`, 'gi'),
  // \"refresh_token\":\"X  |  'password': 'X'  (escaped JSON, quoted keys and values; any length)
  new RegExp(`((?:\\\\+"|')(?:${TOKEN_FIELDS})(?:\\\\+"|')\\s*:\\s*(?:\\\\+"|'))(${FIELD_VALUE})`, 'gi'),
  // client_secret=X  |  &refresh_token=X  |  code_verifier%3DX  (a form or query: any length)
  new RegExp(`((?:^|[?&\\s"';]|%26|%3F)(?:${TOKEN_FIELDS})(?:=|%3D))(${FIELD_VALUE})`, 'gim'),
  // password: X  (unquoted, a log or prose line: 6+ token characters, so minified code such as {password:e} is not one)
  new RegExp(`(\\b(?:${TOKEN_FIELDS})\\s*[:=]\\s*)(${NOT_REDACTED}[A-Za-z0-9._~+/=%|-]{6,})`, 'gi'),
  // ?code=X / &code=X (an authorization code in a redirect or token request; `code` alone is too common)
  new RegExp(`([?&](?:code|state_token)=)(${FIELD_VALUE})`, 'g'),
];

/** Cheap test before the patterns: none of them can match without one of these words. */
const HINT = /authorization|x-api-key|bearer|_token|client_secret|code_verifier|api_key|password|code=/i;

export const STRUCTURAL_MARK = '[REDACTED]';

export function mayHoldStructural(text: string): boolean {
  return HINT.test(text);
}

/** Replaces every structurally recognised credential with [REDACTED] (already redacted values stay). */
export function redactStructural(text: string): string {
  if (!mayHoldStructural(text)) return text;
  let out = text;
  for (const p of PATTERNS) out = out.replace(p, (_m, head: string) => `${head}${STRUCTURAL_MARK}`);
  return out;
}

/** Does the text hold a structurally recognised credential that is not redacted? Returns the field's kind. */
export function findStructural(text: string): string | undefined {
  if (!mayHoldStructural(text)) return undefined;
  for (const p of PATTERNS) {
    p.lastIndex = 0;
    for (const m of text.matchAll(p)) {
      const value = m[2] ?? '';
      // A template placeholder or an ellipsis is not a credential.
      if (/^\.+$/.test(value)) continue;
      return (m[1] ?? '').replace(/^[^A-Za-z]+/, '').replace(/[^A-Za-z_-].*$/s, '').toLowerCase() || 'credential';
    }
  }
  return undefined;
}
