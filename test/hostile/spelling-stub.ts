/**
 * The spelling stub: a target that chooses how secrets are spelled. Its token endpoint answers each request
 * with the next of these (in turn):
 * - `large`: two JWT-like tokens of over 32 KiB each (access and refresh); API calls with one are answered 503
 *   with the token echoed in the body;
 * - `sanctum`: a Laravel Sanctum style access token `7|<40 chars>` and a 4-character refresh token; API calls
 *   with it stall (never answered: a timed-out request, whose Playwright call log carries the Authorization
 *   header);
 * - `short`: a 4-character access token (`5|Zq`-like), API calls stall the same way;
 * - `echo`: 400 text/plain, a JSON-like body with terminal control bytes (OSC 8 hyperlink, BEL, NUL, clear
 *   screen) and the primary client secret echoed split over two fields, as HTML entities (mixed decimal, hex
 *   and plain characters), as hex and as base64 at byte offset 1 of a longer value.
 * The token error's body excerpt reaches the failure message (console, JUnit, results), the HAR and Allure.
 * API calls without a token this stub issued are answered 401. node:http on 127.0.0.1, port 0.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const TOKEN_KINDS = ['large', 'echo', 'sanctum', 'short'] as const;
/** The spellings of the client secret the `echo` kind writes. */
export const ECHO_KINDS = ['base64', 'hex', 'split', 'html'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** The control bytes the `control` kind sends (an OSC 8 hyperlink, BEL, NUL, clear screen). */
export const CONTROL_BODY = '\u001b]8;;https://evil.example/\u0007click here\u001b]8;;\u0007 \u0007\u0000 \u001b[2J done';

export interface SpellingStub {
  url: string;
  /** Every token issued, by kind. */
  readonly issued: Map<'large' | 'sanctum' | 'short', string[]>;
  readonly served: Set<TokenKind | 'api-echo' | 'api-stall'>;
  /** What each echo spelling wrote of the secret: none of these may appear in any output. */
  readonly echoed: Map<(typeof ECHO_KINDS)[number], string[]>;
  close(): Promise<void>;
}

const b64url = (s: string): string => Buffer.from(s).toString('base64url');

/** A JWT-like token of over 32 KiB (a large claims set). */
function largeToken(): string {
  const claims = { sub: 'hostile', scope: 'ftf', roles: Array.from({ length: 700 }, (_, i) => `role-${i}-${randomBytes(16).toString('hex')}`) };
  return `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(claims))}.${randomBytes(32).toString('base64url')}`;
}

/** The base64 characters that depend on the secret's bytes only, at byte offset 1 of `Z<secret>!`. */
function base64Echo(secret: string): { body: string; core: string } {
  const body = Buffer.from(`Z${secret}!`).toString('base64');
  const bits = Buffer.byteLength(secret) * 8;
  return { body, core: body.slice(Math.ceil(8 / 6), Math.floor((8 + bits) / 6)) };
}

function htmlEcho(secret: string): string {
  return [...secret].map((c, i) => (i % 3 === 0 ? `&#${c.charCodeAt(0)};` : i % 3 === 1 ? `&#x${c.charCodeAt(0).toString(16)};` : c)).join('');
}

export async function startSpellingStub(clientSecret: string): Promise<SpellingStub> {
  const issued: SpellingStub['issued'] = new Map([['large', []], ['sanctum', []], ['short', []]]);
  const served: SpellingStub['served'] = new Set();
  const byToken = new Map<string, 'large' | 'sanctum' | 'short'>();
  const b64 = base64Echo(clientSecret);
  const half = Math.floor(clientSecret.length / 2);
  const html = htmlEcho(clientSecret);
  const hex = Buffer.from(clientSecret).toString('hex');
  const echoed: SpellingStub['echoed'] = new Map([
    ['base64', [b64.core]],
    ['hex', [hex]],
    ['split', [clientSecret.slice(0, half), clientSecret.slice(half)]],
    ['html', [html]],
  ]);
  // Not JSON (raw control bytes), but shaped like it: the excerpt in the failure message shows it from the start.
  const echoBody = `{"error":"invalid_client","note":"${CONTROL_BODY}","first":"${clientSecret.slice(0, half)}","last":"${clientSecret.slice(half)}","html":"<p>${html}</p>","hex":"${hex}","debug":"${b64.body}"}`;
  let next = 0;
  const sockets = new Set<Socket>();

  const send = (res: ServerResponse, status: number, type: string, text: string): void => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  function token(res: ServerResponse): void {
    const kind = TOKEN_KINDS[next++ % TOKEN_KINDS.length] as TokenKind;
    served.add(kind);
    const issue = (k: 'large' | 'sanctum' | 'short', access: string, refresh: string): void => {
      for (const t of [access, refresh]) byToken.set(t, k);
      issued.get(k)?.push(access, refresh);
      send(res, 200, 'application/json', JSON.stringify({ access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: 3600 }));
    };
    switch (kind) {
      case 'large':
        return issue('large', largeToken(), largeToken());
      case 'sanctum':
        return issue('sanctum', `7|${randomBytes(30).toString('base64url').slice(0, 40)}`, `9|${randomBytes(2).toString('base64url').slice(0, 2)}~`);
      case 'short':
        return issue('short', `5|${randomBytes(2).toString('base64url').slice(0, 2)}~`, `6|${randomBytes(2).toString('base64url').slice(0, 2)}~`);
      case 'echo':
        return send(res, 400, 'text/plain', echoBody);
    }
  }

  function api(req: IncomingMessage, res: ServerResponse): void {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const kind = bearer === undefined ? undefined : byToken.get(bearer);
    if (kind === 'large') {
      served.add('api-echo');
      return send(res, 503, 'application/json', JSON.stringify({ detail: 'overloaded', seen: bearer }));
    }
    if (kind === 'sanctum' || kind === 'short') {
      served.add('api-stall');
      return; // never answered: the request times out
    }
    send(res, 401, 'application/json', '{"detail":"Not authenticated"}');
  }

  // Headers of 64 KiB and more (a large token in Authorization) must reach the handler.
  const server = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    // Only a token request takes the next kind (the CLI's reachability probe of auth_url does not).
    if (path === '/oauth/token' && req.method === 'POST') req.on('end', () => token(res));
    else if (path === '/oauth/token') send(res, 405, 'application/json', '{"detail":"Method Not Allowed"}');
    else api(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    issued,
    served,
    echoed,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
