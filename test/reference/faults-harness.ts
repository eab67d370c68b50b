/**
 * In-process client for the fault probes: the full reference app (buildReferenceApp), no port, requests by
 * app.inject. A probe answers "does this server show the deviation the fault names?"; faults.test.ts asks it
 * of the clean server (must be false) and of the faulted one (must be true).
 */
import { createHash, randomBytes } from 'node:crypto';
import { buildReferenceApp, type ReferenceApp } from '../../src/reference/app.js';
import type { ReferenceOptions } from '../../src/reference/context.js';

export interface Res {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, unknown>;
}

export interface Probe {
  fault: string;
  /** Extra server options (e.g. production mode). */
  options?: ReferenceOptions;
  /** What it checks, for the test title. */
  checks: string;
  /** True when the server shows the deviation the fault names. */
  deviates(h: H): Promise<boolean>;
}

export const CALLBACK = 'https://app.ftf.test/callback';
export const ALT = 'https://app.ftf.test/alt';
export const ENTITY_FORBIDDEN = 'Not authorised for this entity';
export const BELOW_MINIMUM = 'Amount is below the indication minimum.';

let keys = 0;
export const newKey = (): string => `fault-probe-${process.pid}-${++keys}`;

export class H {
  private readonly tokens = new Map<string, string>();
  constructor(readonly ref: ReferenceApp) {}

  static async start(options: ReferenceOptions = {}): Promise<H> {
    return new H(await buildReferenceApp(options));
  }

  close(): Promise<void> {
    return this.ref.app.close();
  }

  async raw(method: string, url: string, o: { headers?: Record<string, string>; json?: unknown; payload?: string } = {}): Promise<Res> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let payload = o.payload;
    if (o.json !== undefined) {
      payload = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.ref.app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    let body: unknown;
    try {
      body = res.body === '' ? undefined : JSON.parse(res.body);
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body, headers: res.headers };
  }

  basic(clientId: string, secret = this.ref.ctx.secrets.clients[clientId] ?? ''): string {
    return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  }

  tokenRequest(form: Record<string, string>, clientId = 'cc-alice', o: { url?: string; secret?: string } = {}): Promise<Res> {
    return this.raw('POST', o.url ?? '/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: this.basic(clientId, o.secret) },
      payload: new URLSearchParams(form).toString(),
    });
  }

  async token(clientId = 'cc-alice'): Promise<string> {
    const cached = this.tokens.get(clientId);
    if (cached) return cached;
    const res = await this.tokenRequest({ grant_type: 'client_credentials' }, clientId);
    if (res.status !== 200) throw new Error(`token for ${clientId}: ${res.status} ${JSON.stringify(res.body)}`);
    this.tokens.set(clientId, res.body.access_token);
    return res.body.access_token as string;
  }

  /** A {base_url} call as `clientId` (default alice). */
  async api(method: string, path: string, o: { json?: unknown; headers?: Record<string, string>; payload?: string; as?: string } = {}): Promise<Res> {
    const token = await this.token(o.as ?? 'cc-alice');
    return this.raw(method, `/api/v1${path}`, { ...o, headers: { authorization: `Bearer ${token}`, ...(o.headers ?? {}) } });
  }

  /** A sandbox control call; advancing the clock may expire tokens, so they are fetched again afterwards. */
  sandbox(path: string, json: unknown = {}): Promise<Res> {
    if (path.startsWith('/clock')) this.tokens.clear();
    return this.raw('POST', `/_sandbox${path}`, { json });
  }

  async indication(code = 'FTF-FIX-1M'): Promise<{ uid: string; subscriptionDates: string[]; minimum: number; maximum: number }> {
    return (await this.api('GET', `/indication/${code}`)).body;
  }

  /** POST /subscribe for ENT-ALPHA on FTF-FIX-1M (minimum 1, maximum 50 enforced). */
  async subscribe(body: Record<string, unknown> = {}, key: string | null = newKey()): Promise<Res> {
    const ind = await this.indication();
    const headers: Record<string, string> = key === null ? {} : { 'idempotency-key': key };
    return this.api('POST', '/subscribe', { headers, json: { indicationUid: ind.uid, entityCode: 'ENT-ALPHA', amount: 1_000_000, ...body } });
  }

  /** Every event alice sees (the stream is small in these tests). */
  async events(query = ''): Promise<Res> {
    return this.api('GET', `/event${query}`);
  }

  /** A code for code-app via the sandbox prompt=none shortcut, with its PKCE verifier. */
  async code(redirectUri = CALLBACK): Promise<{ code: string; verifier: string }> {
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const q = new URLSearchParams({
      response_type: 'code', client_id: 'code-app', redirect_uri: redirectUri, state: 's', code_challenge: challenge,
      code_challenge_method: 'S256', prompt: 'none', login_hint: 'alice@ftf.test',
    });
    const res = await this.raw('GET', `/oauth/authorize?${q.toString()}`);
    const code = new URL(String(res.headers.location)).searchParams.get('code');
    if (code === null) throw new Error(`no code: ${res.status}`);
    return { code, verifier };
  }
}
