/**
 * The calls the model properties make besides GET /event (events-api.ts): the indication read, POST /subscribe
 * and the checkpoint operations, one at a time or several released together from the transport's race
 * barrier (http/race-lanes.ts). Everything goes through the recording transport the fixture gives (so the
 * exchanges are redacted and land in the run log); every answer is schema-checked through the operation map.
 * Answers are returned as data (status, body text, JSON, schema mismatch) for the model to judge; no HTTP
 * answer throws here, only a missing one (HARNESS).
 */
import { placeShape } from '../../engine/shapes.js';
import { listPointer, walkPages, WalkProblem, type FetchedPage } from '../../engine/paging.js';
import type { ListKey, RequestShapeKey } from '../../target/paging.js';
import type { Violation } from '../types.js';
import { Decimal } from 'decimal.js';
import { checkSchema } from '../../checks/schema.js';
import { excerpt, type Redact } from '../../checks/excerpt.js';
import type { AuthClient, CodeGrant } from '../../auth/types.js';
import { getPointer } from '../../expressions/values.js';
import type { HttpRequest, HttpResponse, RaceLane, RaceSettled } from '../../http/types.js';
import type { SchemaRegistry } from '../../schemas/types.js';
import type { ResolvedTarget } from '../../target/types.js';
import { PropertyViolation } from '../types.js';
import type { Answer, BodyKind } from './state.js';

export interface ModelTransport {
  send(request: HttpRequest, label?: string): Promise<HttpResponse>;
  race?(lanes: RaceLane[], label?: string): Promise<RaceSettled[]>;
}

export interface ModelApiDeps {
  target: ResolvedTarget;
  schemas: SchemaRegistry;
  transport: ModelTransport;
  auth: Pick<AuthClient, 'authorization'> & Partial<Pick<AuthClient, 'forgetAll' | 'clientAuthorization' | 'authorizeCode'>>;
  redact?: Redact;
}

/** What the subscribe bodies are built from (read once per property from GET /indication/{code}). */
export interface Product {
  code: string;
  uid: string;
  /** indication minimum x 1,000,000 (decimal.js). */
  minimumUnits: string;
  /** indication maximum x 1,000,000 (decimal.js), when the record states one. */
  maximumUnits?: string;
  entity: string;
}

/** A JSON body sent as this text, digit for digit (amounts written from decimal.js, never through a float). */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * A body of each kind, and the "changed" body a retry with a used key sends instead. `entity`: the entityCode
 * (default: the product's, the profile's first allowed entity); a `forbidden-entity` body names the profile's
 * forbidden entity.
 */
export function subscribeBody(target: ResolvedTarget, p: Product, kind: BodyKind, unknownUid: string, entity = p.entity): Record<string, unknown> {
  const minimum = new Decimal(p.minimumUnits);
  const amount = (kind === 'below-minimum' ? minimum.minus(1) : kind === 'negative' ? minimum.negated() : minimum).toNumber();
  const uid = kind === 'unknown-uid' ? unknownUid : p.uid;
  const entityCode = kind === 'forbidden-entity' ? target.entities.forbidden ?? entity : entity;
  return { [target.fields.subscribe_indication_uid ?? 'indicationUid']: uid, entityCode, amount };
}

/**
 * The body a retry sends when it "materially changes" (Errors rules): the rejected cause removed, or a valid body
 * spoiled. A forbidden entity stays forbidden (whether the 403 is cached or checked again, a retry gets it again).
 */
export const CHANGED: Record<BodyKind, BodyKind> = { valid: 'below-minimum', 'below-minimum': 'valid', 'unknown-uid': 'valid', 'forbidden-entity': 'forbidden-entity', negative: 'valid' };

export class ModelApi {
  private readonly redact: Redact;
  private readonly base: string;

  constructor(private readonly deps: ModelApiDeps) {
    this.redact = deps.redact ?? ((s) => s);
    this.base = deps.target.baseUrl.replace(/\/+$/, '');
  }

  get canRace(): boolean {
    return typeof this.deps.transport.race === 'function';
  }

  /** GET /indication/{code}: its current uid (profile pointer) and minimum. The record may sit at the root, in a one-element array or under `indication` (layout not shown). */
  async product(code: string, entity: string): Promise<Product> {
    // Set-up only (the property asserts nothing about the indication): its layout is not shown, so no schema check here.
    const a = await this.one('GET', `/indication/${encodeURIComponent(code)}`, 'primary', undefined, {}, `read indication ${code}`, false);
    const body = a.json;
    const record = Array.isArray(body) ? body[0] : typeof body === 'object' && body !== null && typeof (body as { indication?: unknown }).indication === 'object' ? (body as { indication: unknown }).indication : body;
    const uid = getPointer(record, this.deps.target.fields.indication_uid ?? '/uid');
    const minimum = (record as { minimum?: unknown } | undefined)?.minimum;
    const maximum = (record as { maximum?: unknown } | undefined)?.maximum;
    if (a.status !== 200 || typeof uid !== 'string' || (typeof minimum !== 'number' && typeof minimum !== 'string')) {
      throw new PropertyViolation({ clause: 'HARNESS', message: `indication ${code} (profile: indications.primary) gave no current uid and minimum: GET ${this.base}/indication/${encodeURIComponent(code)} → ${a.status} ${excerpt(a.text, this.redact)}` });
    }
    const units = (x: number | string): string => new Decimal(typeof x === 'number' ? String(x) : x).times(1_000_000).toFixed();
    return { code, uid, minimumUnits: units(minimum), ...(typeof maximum === 'number' || typeof maximum === 'string' ? { maximumUnits: units(maximum) } : {}), entity };
  }

  /** POST /subscribe; key undefined = without the Idempotency-Key header. */
  subscribe(key: string | undefined, body: Record<string, unknown> | RawJson, label: string, credential = 'primary'): Promise<Answer> {
    return this.one('POST', '/subscribe', credential, body, key === undefined ? {} : { 'idempotency-key': key }, label);
  }

  /** n identical POST /subscribe with one key, released together. */
  subscribeTogether(key: string, body: Record<string, unknown>, n: number, label: string): Promise<Answer[]> {
    const items = Array.from({ length: n }, () => ({ path: '/subscribe', body, headers: { 'idempotency-key': key } }));
    return this.together(items, `/indication/${encodeURIComponent(this.deps.target.indications.primary ?? '')}`, label);
  }

  /** The request shape of PUT is the profile's (checkpoint.put; engine/shapes.ts): no body, a body or a query naming the checkpoint. */
  async putCheckpoint(name: string, credential: string, label: string): Promise<Answer> {
    const placed = placeShape(this.deps.target.shapes.checkpoint_put, name);
    const query = placed.query ? `?${new URLSearchParams(placed.query).toString()}` : '';
    const req = await this.request('PUT', `${this.checkpointPath(name)}${query}`, credential, undefined, placed.body ? { 'content-type': placed.body.contentType } : {});
    return this.oneRequest(placed.body ? { ...req, body: placed.body.text } : req, label, true);
  }

  getCheckpoint(name: string, label: string): Promise<Answer> {
    return this.one('GET', this.checkpointPath(name), 'primary', undefined, {}, label);
  }

  patchCheckpoint(name: string, version: string, cursor: string, label: string): Promise<Answer> {
    return this.one('PATCH', this.checkpointPath(name), 'primary', { expectedCheckpointVersion: version, newCursor: cursor }, {}, label);
  }

  /** One PATCH per cursor, all with `version`, released together. */
  patchTogether(name: string, version: string, cursors: readonly string[], label: string): Promise<Answer[]> {
    const path = this.checkpointPath(name);
    return this.together(cursors.map((c) => ({ path, method: 'PATCH', body: { expectedCheckpointVersion: version, newCursor: c }, headers: {} })), path, label);
  }

  /** DELETE of a checkpoint (path not shown by the spec: the profile's paths.checkpoint_delete). */
  deleteCheckpoint(name: string, credential: string, label: string): Promise<Answer> {
    const path = (this.deps.target.paths.checkpoint_delete ?? '/event/checkpoint/{name}').replace('{name}', encodeURIComponent(name));
    return this.one('DELETE', path, credential, undefined, {}, label);
  }

  /**
   * Every page of a list (the profile's paging.<key>, engine/paging.ts walkPages): an answer whose json is the
   * entries of every page (pointer ''), or the first non-2xx page as it came, or a 2xx page without a list at
   * the profile's pointer (pointer: that one, for the caller's judgement). Loops are the `clause`'s violation; the
   * profile's page bound (timeouts.max_list_pages) is a BOUND (errored).
   */
  async listAll(key: ListKey, path: string, credential: string, label: string, clause: Violation['clause']): Promise<{ answer: Answer; pointer: string }> {
    const target = this.deps.target;
    const pointer = listPointer(target.fields, key);
    let notList: Answer | undefined;
    try {
      const w = await walkPages<FetchedPage & { answer: Answer }>({
        paging: target.paging[key], pointer, maxPages: target.timeouts.maxListPages, baseUrl: target.baseUrl,
        notAList: (page) => {
          notList = page.answer;
          return new Error('not a list');
        },
        fetch: async (req, n) => {
          const q = new URLSearchParams(req.query).toString();
          const base = req.path ?? path;
          const url = `${base}${q ? `${base.includes('?') ? '&' : '?'}${q}` : ''}`;
          const http = await this.request('GET', url, credential, undefined, {});
          let res: HttpResponse;
          try {
            res = await this.deps.transport.send(http, n === 1 ? label : `${label} (page ${n})`);
          } catch (e) {
            throw this.noAnswer(label, http, e);
          }
          const answer = this.answer(http, res, label);
          return { status: res.status, body: res.json, headers: res.headers, url: http.url, answer };
        },
      });
      if (w.last.status < 200 || w.last.status > 299) return { answer: w.last.answer, pointer };
      return { answer: { ...w.last.answer, json: w.items }, pointer: '' };
    } catch (e) {
      if (notList) return { answer: notList, pointer };
      // The profile's own page bound is no clause's violation: a correct list may be that long (errored, types.ts).
      if (e instanceof WalkProblem) throw new PropertyViolation({ clause: e.bound ? 'BOUND' : clause, role: label, message: `${path}: ${e.message}` });
      throw e;
    }
  }

  /** A request whose shape the spec leaves open (webhook.delete, webhook.register): the value where the profile puts it. */
  shaped(method: string, path: string, shape: RequestShapeKey, value: string, credential: string, label: string): Promise<Answer> {
    const placed = placeShape(this.deps.target.shapes[shape], value);
    const q = placed.query ? `${path.includes('?') ? '&' : '?'}${new URLSearchParams(placed.query).toString()}` : '';
    return this.request(method, `${path}${q}`, credential, undefined, placed.body ? { 'content-type': placed.body.contentType } : {})
      .then((req) => this.oneRequest(placed.body ? { ...req, body: placed.body.text } : req, label, true));
  }

  /** Any API call of the model's other commands (webhooks, lists, holdings, reads by other credentials). */
  call(method: string, path: string, credential: string, body: unknown, label: string): Promise<Answer> {
    return this.one(method, path, credential, body, {}, label);
  }

  /**
   * POST {auth_url}/oauth/token, form-encoded, with the given Authorization (HTTP Basic; undefined: none). Not
   * schema-checked: the token commands judge the answer by its clause. The tokens it carries are learnt by the
   * redactor from the traffic (access_token, refresh_token), so no output shows them.
   */
  async token(form: Record<string, string>, authorization: string | undefined, label: string): Promise<Answer> {
    const req: HttpRequest = {
      method: 'POST',
      url: `${this.deps.target.authUrl.replace(/\/+$/, '')}/oauth/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...(authorization ? { authorization } : {}) },
      body: new URLSearchParams(form).toString(),
      timeoutMs: this.deps.target.timeouts.requestMs,
    };
    return this.oneRequest(req, label, false);
  }

  /** "Basic base64(client_id:secret)" of a credential of the profile (the auth client's), or with the secret replaced. */
  basic(credential: string, secret?: string): string | undefined {
    const cred = this.deps.target.credentials[credential];
    if (!cred?.clientId) return undefined;
    if (secret === undefined) return this.deps.auth.clientAuthorization?.(credential);
    return `Basic ${Buffer.from(`${cred.clientId}:${secret}`, 'utf8').toString('base64')}`;
  }

  /** Consent (PKCE S256) for a code credential: the code, its verifier and redirect_uri (the auth client's). */
  authorizeCode(credential: string, label: string): Promise<CodeGrant> {
    const authorize = this.deps.auth.authorizeCode;
    if (!authorize) throw new PropertyViolation({ clause: 'HARNESS', role: label, message: 'the auth client cannot run the consent step' });
    return authorize(credential);
  }

  /** A GET with a bearer the caller obtained (a token the token commands were issued). */
  withBearer(path: string, token: string, label: string): Promise<Answer> {
    const req: HttpRequest = { method: 'GET', url: `${this.base}${path}`, headers: { accept: 'application/json', authorization: `Bearer ${token}` }, timeoutMs: this.deps.target.timeouts.requestMs };
    return this.oneRequest(req, label, false);
  }

  /** GET of a checkpoint by another credential. */
  getCheckpointAs(name: string, credential: string, label: string): Promise<Answer> {
    return this.one('GET', this.checkpointPath(name), credential, undefined, {}, label);
  }

  patchCheckpointAs(name: string, version: string, cursor: string, credential: string, label: string): Promise<Answer> {
    return this.one('PATCH', this.checkpointPath(name), credential, { expectedCheckpointVersion: version, newCursor: cursor }, {}, label);
  }

  /** POST {control_url}/clock/advance (the sandbox control API; `clock` capability): cached tokens are forgotten after it. */
  async advanceClock(body: Record<string, number>, label: string): Promise<void> {
    const control = this.deps.target.controlUrl;
    if (!control) throw new PropertyViolation({ clause: 'HARNESS', role: label, message: 'advancing the clock needs the sandbox control API (control_url)' });
    const req: HttpRequest = { method: 'POST', url: `${control.replace(/\/+$/, '')}/clock/advance`, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), timeoutMs: this.deps.target.timeouts.requestMs };
    let res: HttpResponse;
    try {
      res = await this.deps.transport.send(req, label);
    } catch (e) {
      throw this.noAnswer(label, req, e);
    }
    if (res.status !== 200) throw new PropertyViolation({ clause: 'HARNESS', role: label, message: `POST {control_url}/clock/advance answered ${res.status}: ${excerpt(res.bodyText, this.redact)}` });
    // Tokens live hours on the simulated clock: the ones cached before the move may have expired.
    this.deps.auth.forgetAll?.();
  }

  private checkpointPath(name: string): string {
    return `/event/checkpoint/${encodeURIComponent(name)}`;
  }

  private async request(method: string, path: string, credential: string, body: unknown, headers: Record<string, string>): Promise<HttpRequest> {
    const authorization = await this.deps.auth.authorization(credential);
    return {
      method,
      url: `${this.base}${path}`,
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers, ...(authorization ? { authorization } : {}) },
      ...(body !== undefined ? { body: body instanceof RawJson ? body.text : JSON.stringify(body) } : {}),
      timeoutMs: this.deps.target.timeouts.requestMs,
    };
  }

  private async one(method: string, path: string, credential: string, body: unknown, headers: Record<string, string>, label: string, checkSchema = true): Promise<Answer> {
    return this.oneRequest(await this.request(method, path, credential, body, headers), label, checkSchema);
  }

  private async oneRequest(req: HttpRequest, label: string, checkSchema: boolean): Promise<Answer> {
    let res: HttpResponse;
    try {
      res = await this.deps.transport.send(req, label);
    } catch (e) {
      throw this.noAnswer(label, req, e);
    }
    return checkSchema ? this.answer(req, res, label) : { status: res.status, text: res.bodyText, json: res.json };
  }

  /** Requests released together from the race barrier (warmed connections), or sent at once when the transport has none. */
  private async together(items: ReadonlyArray<{ path: string; method?: string; body: unknown; headers: Record<string, string> }>, warmPath: string, label: string): Promise<Answer[]> {
    const reqs = await Promise.all(items.map((it) => this.request(it.method ?? 'POST', it.path, 'primary', it.body, it.headers)));
    const race = this.deps.transport.race?.bind(this.deps.transport);
    if (!race) {
      const settled = await Promise.all(reqs.map((r) => this.deps.transport.send(r, label).then((res) => ({ res }), (error: unknown) => ({ error }))));
      return settled.map((s, i) => ('res' in s ? this.answer(reqs[i] as HttpRequest, s.res, label) : (() => { throw this.noAnswer(label, reqs[i] as HttpRequest, s.error); })()));
    }
    // Each lane's warm-up is a harmless read of the resource the race is about.
    const warm = await this.request('GET', warmPath, 'primary', undefined, {});
    const settled = await race(reqs.map((request) => ({ warm, request })), label);
    return settled.map((s, i) => {
      if (!s.response) throw this.noAnswer(label, reqs[i] as HttpRequest, s.error);
      return this.answer(reqs[i] as HttpRequest, s.response, label);
    });
  }

  private answer(req: HttpRequest, res: HttpResponse, label: string): Answer {
    const path = new URL(req.url).pathname.slice(new URL(this.base).pathname.replace(/\/+$/, '').length) || '/';
    const schema = checkSchema({
      response: { method: req.method, url: req.url, status: res.status, headers: res.headers, body: res.json ?? res.bodyText, text: res.bodyText, ...(res.jsonError !== undefined ? { json_error: res.jsonError } : {}) },
      registry: this.deps.schemas,
      mode: 'auto',
      base: 'api',
      pathname: path,
      redact: this.redact,
    });
    // A mismatch blames what the schema check named (the x-clause of the schema and field that failed), like a
    // scenario's schema check: a cursor off its format in a checkpoint answer is the cursor's clause, not RES-CHECKPOINT.
    const problem: Violation | undefined = schema && !schema.passed ? { clause: 'SCHEMA', schemaClauses: [...(schema.clauses ?? [])], role: label, message: schema.message } : undefined;
    return { status: res.status, text: res.bodyText, json: res.json, ...(problem ? { schema: problem } : {}) };
  }

  private noAnswer(label: string, req: HttpRequest, e: unknown): PropertyViolation {
    const detail = this.redact(e instanceof Error ? e.message : String(e));
    return new PropertyViolation({ clause: 'HARNESS', role: label, message: `${req.method} ${this.redact(req.url.slice(this.base.length))} got no HTTP response: ${detail}` });
  }
}
