/**
 * Builds a reproducing curl command from a raw request, with every secret replaced by a shell reference
 * to the environment variable that holds it ("$FTF_PRIMARY_CLIENT_SECRET", "$FTF_ACCESS_TOKEN").
 * Everything is double-quoted so the references expand; literal text is escaped for double quotes.
 */
import type { Redactor, Segment } from './redactor.js';
import type { HttpRequest } from './types.js';

const SKIP_HEADERS = new Set(['content-length', 'host', 'connection']);

function quote(segments: Segment[]): string {
  const body = segments
    .map((seg) => ('text' in seg ? seg.text.replace(/[\\"$`]/g, '\\$&') : `\${${seg.env}}`))
    .join('');
  return `"${body}"`;
}

export function buildCurl(req: HttpRequest, redactor: Redactor): string {
  const parts = ['curl', '-sS', '-i'];
  if (req.method !== 'GET' || req.body !== undefined) parts.push('-X', req.method);
  parts.push(quote(redactor.segments(req.url)));
  for (const [name, value] of Object.entries(req.headers)) {
    if (SKIP_HEADERS.has(name.toLowerCase())) continue;
    const sensitive = redactor.sensitiveHeader(name, value);
    if (sensitive?.basic) {
      parts.push('-u', quote([{ text: `${sensitive.basic.clientId}:` }, { label: sensitive.label, env: sensitive.basic.secretEnv }]));
    } else if (sensitive) {
      parts.push('-H', quote([{ text: `${name}: ${sensitive.scheme ? `${sensitive.scheme} ` : ''}` }, { label: sensitive.label, env: sensitive.env }]));
    } else {
      parts.push('-H', quote(redactor.segments(`${name}: ${value}`)));
    }
  }
  if (req.body !== undefined) parts.push('--data-raw', quote(redactor.segments(req.body)));
  parts.push('--max-time', String(Math.max(1, Math.ceil(req.timeoutMs / 1000))));
  return parts.join(' ');
}
