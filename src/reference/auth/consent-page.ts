/**
 * HTML of the consent page and of the authorize error page. Every interpolated value goes through
 * escapeHtml; the pages never contain a password, code, token or client secret.
 */
import type { FastifyReply } from 'fastify';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** The authorisation request carried through the form in hidden fields. */
export interface ConsentFields {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  state?: string;
  code_challenge: string;
  code_challenge_method: string;
}

export interface ConsentView {
  fields: ConsentFields;
  /** Pre-filled e-mail (login_hint or the previous attempt). */
  email?: string;
  /** Shown above the form after a failed attempt. */
  error?: string;
}

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}'
  + 'label{display:block;margin-top:1rem}input{width:100%;padding:.4rem}'
  + '.actions{margin-top:1.5rem;display:flex;gap:1rem}.error{color:#a00}';

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body>
</html>
`;
}

export function renderConsentPage(view: ConsentView): string {
  const { fields } = view;
  const hidden = Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => `    <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const client = escapeHtml(fields.client_id);
  const target = escapeHtml(fields.redirect_uri);
  const error = view.error === undefined ? '' : `  <p class="error" role="alert">${escapeHtml(view.error)}</p>\n`;
  return page(`Authorise ${fields.client_id}`, `  <h1>Authorise ${client}</h1>
  <p>The application <strong>${client}</strong> asks to use the FTF investment API on your behalf.
  After you approve, you are sent back to <code>${target}</code>.</p>
${error}  <form method="post" action="/oauth/authorize" id="consent">
${hidden}
    <label for="email">E-mail</label>
    <input type="email" id="email" name="email" autocomplete="username" required value="${escapeHtml(view.email ?? '')}">
    <label for="password">Password</label>
    <input type="password" id="password" name="password" autocomplete="current-password" required>
    <div class="actions">
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
    </div>
  </form>`);
}

export function renderErrorPage(message: string): string {
  return page('Authorisation request refused', `  <h1>Authorisation request refused</h1>
  <p>${escapeHtml(message)}</p>
  <p>The request was not redirected because the client or its redirect URI could not be trusted.</p>`);
}

/** Headers of every authorize page: no caching, no framing (clickjacking), no scripts. */
export function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .send(html);
}
