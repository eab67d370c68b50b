/**
 * The canary stub: a target whose token endpoint issues real-looking tokens (captured here, so the canary
 * search knows them) and whose API answers each request with the next of four failures that make
 * Playwright's request error carry its call log (request headers, Authorization included):
 * a stalled body, an endless chunked body, a gzip bomb, and a redirect to another origin (a second loopback
 * server that records what it receives). Token requests of the `second` and `readonly` clients stall.
 *
 * With `spellings` (the primary client secret) the same stub also chooses how secrets are spelled (issue 29):
 * its first token requests are answered, in turn, with
 * - `large`: two JWT-like tokens of over 32 KiB each (access and refresh); API calls with one are answered 503
 *   with the token echoed in the body;
 * - `echo`: 400 text/plain, a JSON-like body with terminal control bytes (OSC 8 hyperlink, BEL, NUL, clear
 *   screen) and the client secret echoed cut at a random point over two fields, as HTML entities (mixed
 *   decimal, hex and plain characters), as hex and as base64 at byte offset 1 of a longer value;
 * - `sanctum`: a Laravel Sanctum style access token `7|<40 chars>` and a 4-character refresh token; API calls
 *   with it stall (a timed-out request, whose Playwright call log carries the Authorization header);
 * - `short`: a 4-character access token (`5|Zq`-like), API calls stall the same way;
 * and every later one with an ordinary token, whose API calls meet the four failures above. One run against
 * it serves both the canary and the spelling cases (test/hostile/canary.test.ts). node:http on 127.0.0.1, port 0.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export const API_BEHAVIOURS = ['stalled-body', 'endless-chunked', 'gzip-bomb', 'cross-origin-redirect'] as const;
/** The spelling kinds of the first token answers (with `spellings`). */
export const TOKEN_KINDS = ['large', 'echo', 'sanctum', 'short'] as const;
/** The spellings of the client secret the `echo` kind writes. */
export const ECHO_KINDS = ['base64', 'hex', 'split', 'html'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
export type CanaryBehaviour = (typeof API_BEHAVIOURS)[number] | 'token-issued' | 'token-stall' | TokenKind | 'api-echo' | 'api-stall';
/** The control bytes the `echo` kind sends (an OSC 8 hyperlink, BEL, NUL, clear screen). */
export const CONTROL_BODY = '\u001b]8;;https://evil.example/\u0007click here\u001b]8;;\u0007 \u0007\u0000 \u001b[2J done';
/** Around each part of the cut client secret: ASCII no escaping changes (JSON, XML, HTML, URL), so a part of one character still makes a canary. */
export const CUT_OPEN = '~!';
export const CUT_CLOSE = '!~';
/** Clients whose token request never gets an answer. */
const STALLED_CLIENTS = new Set(['hostile-second', 'hostile-readonly']);
/** Decompressed size of the bomb: far over any body cap, 64 KiB on the wire. */
export const BOMB_BYTES = 64 * 1024 * 1024;

export interface CanaryStub {
  url: string;
  /** The other origin the redirect points at. */
  otherUrl: string;
  /** Access/refresh tokens issued (the canaries obtained during the run), all kinds. */
  readonly issued: string[];
  /** The tokens of each spelling kind. */
  readonly issuedKind: Map<'large' | 'sanctum' | 'short', string[]>;
  /** What each echo spelling wrote of the secret: none of these may appear in any output. */
  readonly echoed: Map<(typeof ECHO_KINDS)[number], string[]>;
  readonly served: Set<CanaryBehaviour>;
  /** Requests the other origin received, with their headers. */
  readonly crossOrigin: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>;
  close(): Promise<void>;
}

interface Tracked {
  server: Server;
  sockets: Set<Socket>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Tracked & { url: string }> {
  const sockets = new Set<Socket>();
  // Headers of 64 KiB and more (a large token in Authorization) must reach the handler.
  const server = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => {
    req.resume();
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, sockets, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function clientOf(req: IncomingMessage, body: string): string | undefined {
  const auth = req.headers.authorization ?? '';
  const m = /^Basic\s+(\S+)$/i.exec(auth);
  if (m?.[1]) return Buffer.from(m[1], 'base64').toString('utf8').split(':')[0];
  return new URLSearchParams(body).get('client_id') ?? undefined;
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

/** The `echo` kind's body and what of the secret it holds; the cut point is random (1 .. length - 1). */
function echoOf(secret: string): { body: string; echoed: CanaryStub['echoed'] } {
  const b64 = base64Echo(secret);
  const at = randomInt(1, secret.length);
  const html = htmlEcho(secret);
  const hex = Buffer.from(secret).toString('hex');
  const first = `${CUT_OPEN}${secret.slice(0, at)}${CUT_CLOSE}`;
  const last = `${CUT_OPEN}${secret.slice(at)}${CUT_CLOSE}`;
  // Not JSON (raw control bytes), but shaped like it: the excerpt in the failure message shows it from the start.
  const body = `{"error":"invalid_client","note":"${CONTROL_BODY}","first":"${first}","last":"${last}","html":"<p>${html}</p>","hex":"${hex}","debug":"${b64.body}"}`;
  return { body, echoed: new Map([['base64', [b64.core]], ['hex', [hex]], ['split', [first, last]], ['html', [html]]]) };
}

export async function startCanaryStub(options: { spellings?: string } = {}): Promise<CanaryStub> {
  const issued: string[] = [];
  const issuedKind: CanaryStub['issuedKind'] = new Map([['large', []], ['sanctum', []], ['short', []]]);
  const byToken = new Map<string, 'large' | 'sanctum' | 'short'>();
  const echo = options.spellings === undefined ? undefined : echoOf(options.spellings);
  const kinds: TokenKind[] = echo ? [...TOKEN_KINDS] : [];
  const served = new Set<CanaryBehaviour>();
  const crossOrigin: CanaryStub['crossOrigin'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const bomb = gzipSync(Buffer.alloc(BOMB_BYTES, 0x20));
  let next = 0;

  const other = await listen((req, res) => {
    crossOrigin.push({ path: req.url ?? '/', headers: { ...req.headers } });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"OK"}');
  });

  const send = (res: ServerResponse, status: number, type: string, text: string): void => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

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
    const behaviour = API_BEHAVIOURS[next++ % API_BEHAVIOURS.length] as (typeof API_BEHAVIOURS)[number];
    served.add(behaviour);
    switch (behaviour) {
      case 'stalled-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 4096 });
        res.write('{"status": "OK", "padding": "');
        return; // the rest never comes
      case 'endless-chunked': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('{"uid": "e1"},')), 20);
        timers.add(timer);
        return;
      }
      case 'gzip-bomb':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
        res.end(bomb);
        return;
      case 'cross-origin-redirect':
        res.writeHead(307, { location: `${other.url}${req.url ?? '/'}` });
        res.end();
        return;
    }
  }

  const main = await listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    if (path !== '/oauth/token') return api(req, res);
    // Only a token request takes the next kind (the CLI's reachability probe of auth_url does not).
    if (req.method !== 'POST') return send(res, 405, 'application/json', '{"detail":"Method Not Allowed"}');
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      if (STALLED_CLIENTS.has(clientOf(req, body) ?? '')) {
        served.add('token-stall');
        return; // never answered
      }
      const kind = kinds.shift();
      if (kind) served.add(kind);
      if (kind === 'echo') return send(res, 400, 'text/plain', (echo as { body: string }).body);
      const [access, refresh] = kind === 'large' ? [largeToken(), largeToken()]
        : kind === 'sanctum' ? [`7|${randomBytes(30).toString('base64url').slice(0, 40)}`, `9|${randomBytes(2).toString('base64url').slice(0, 2)}~`]
        : kind === 'short' ? [`5|${randomBytes(2).toString('base64url').slice(0, 2)}~`, `6|${randomBytes(2).toString('base64url').slice(0, 2)}~`]
        : [randomBytes(24).toString('base64url'), randomBytes(24).toString('base64url')];
      issued.push(access, refresh);
      if (kind) {
        for (const t of [access, refresh]) byToken.set(t, kind);
        issuedKind.get(kind)?.push(access, refresh);
      } else {
        served.add('token-issued');
      }
      send(res, 200, 'application/json', JSON.stringify({ access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: 3600 }));
    });
  });

  const close = async (t: Tracked): Promise<void> => {
    const closed = new Promise<void>((r) => t.server.close(() => r()));
    for (const s of t.sockets) s.destroy();
    await closed;
  };
  return {
    url: main.url,
    otherUrl: other.url,
    issued,
    issuedKind,
    echoed: echo?.echoed ?? new Map(),
    served,
    crossOrigin,
    async close() {
      for (const t of timers) clearInterval(t);
      await Promise.all([close(main), close(other)]);
    },
  };
}
