/**
 * The two HTTP calls the paging properties make: one GET /event page (schema-checked through the operation
 * map, like every scenario response) and a synthetic append through the sandbox control API. Requests go
 * through the recording transport (labels name the role of each page); failures throw PropertyViolation.
 */
import { checkSchema } from '../checks/schema.js';
import { excerpt, type Redact } from '../checks/excerpt.js';
import type { AuthClient } from '../auth/types.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import type { SchemaRegistry } from '../schemas/types.js';
import type { ResolvedTarget } from '../target/types.js';
import { FtfError } from '../../shared/errors.js';
import { PropertyViolation, type EventRef, type PageRecord } from './types.js';

/** The reference server's name for the page-size filter (the spec leaves further filters "not shown"). */
export const LIMIT_PARAM = 'limit';

export interface EventQuery {
  startCursor?: string | undefined;
  endCursor?: string | undefined;
  /** undefined = the target's default page size. */
  limit?: number | undefined;
  /** Further query parameters (filters: "not shown" by the spec, Endpoints rule 10), sent as given. */
  filters?: Readonly<Record<string, string>> | undefined;
}

/** A GET /event answer as data (the model judges filtered reads whatever their status). */
export interface EventsAnswer {
  status: number;
  text: string;
  json: unknown;
  /** The schema-valid 200 body reduced to a page. */
  page?: PageRecord;
  /** The 200 body's schema mismatch. */
  schemaMessage?: string;
  /** The clauses that mismatch breaks (the schema check's: x-clause of the schema and field that failed). */
  schemaClauses?: string[];
}

export interface EventsApiDeps {
  target: ResolvedTarget;
  schemas: SchemaRegistry;
  transport: { send(request: HttpRequest, label?: string): Promise<HttpResponse> };
  auth: Pick<AuthClient, 'authorization'>;
  redact?: Redact;
  /** Credential of the profile used for every GET /event (default primary). */
  credential?: string;
}

/** A 400/422 answer to a page size the target does not offer (maximum page size: "not shown"). */
export class LimitRefused extends FtfError {
  constructor(readonly limit: number, status: number) {
    super('FTF_E_PROPERTY_LIMIT_REFUSED', `the target refused limit=${limit} with ${status}`, { hint: 'the maximum page size is not fixed by the spec' });
  }
}

export class EventsApi {
  private readonly redact: Redact;

  constructor(private readonly deps: EventsApiDeps) {
    this.redact = deps.redact ?? ((s) => s);
  }

  /** Appends need the sandbox control API (declared by the `clock` capability). */
  get canAppend(): boolean {
    return Boolean(this.deps.target.controlUrl) && this.deps.target.capabilities.has('clock');
  }

  /** One GET /event. `refusableLimit`: a 400/422 is LimitRefused (the caller skips the case) instead of a failure. */
  async page(q: EventQuery, label: string, opts: { refusableLimit?: boolean } = {}): Promise<PageRecord> {
    const a = await this.read(q, label);
    if (opts.refusableLimit && q.limit !== undefined && (a.status === 400 || a.status === 422)) throw new LimitRefused(q.limit, a.status);
    if (a.status !== 200) {
      throw new PropertyViolation({ clause: 'SCHEMA', message: `${label}: GET ${this.relative(this.url(q))} answered ${a.status}, expected 200: ${excerpt(a.text, this.redact)}` });
    }
    if (a.schemaMessage !== undefined || a.page === undefined) throw new PropertyViolation({ clause: 'SCHEMA', ...(a.schemaClauses ? { schemaClauses: a.schemaClauses } : {}), message: `${label}: ${a.schemaMessage ?? 'no page'}` });
    // An event of the profile's forbidden entity in the primary user's stream is a leak, whatever else the page
    // shows: judged first, so that the events it adds are not blamed on paging or on a checkpoint's cursor (issue 24).
    const forbidden = (this.deps.credential ?? 'primary') === 'primary' ? this.deps.target.entities.forbidden : undefined;
    const leaked = forbidden === undefined ? undefined : a.page.events.find((e) => e.entityCode === forbidden);
    if (leaked) throw new PropertyViolation({ clause: 'AUTH-EVENT-SCOPE', message: `${label}: GET ${this.relative(this.url(q))} returned event ${leaked.uid} of ${forbidden}, an entity off the primary user's allow-list (profile: entities.forbidden)` });
    return a.page;
  }

  /** One GET /event, its answer as data whatever the status (a 200 is schema-checked and reduced to a page). */
  async read(q: EventQuery, label: string, credential = this.deps.credential ?? 'primary'): Promise<EventsAnswer> {
    const url = this.url(q);
    const authorization = await this.deps.auth.authorization(credential);
    const res = await this.send({ method: 'GET', url, headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) } }, label);
    if (res.status !== 200) return { status: res.status, text: res.bodyText, json: res.json };
    const schema = checkSchema({
      response: { method: 'GET', url, status: res.status, headers: res.headers, body: res.json ?? res.bodyText, text: res.bodyText, ...(res.jsonError !== undefined ? { json_error: res.jsonError } : {}) },
      registry: this.deps.schemas,
      mode: 'auto',
      base: 'api',
      pathname: '/event',
      redact: this.redact,
    });
    if (schema && !schema.passed) return { status: res.status, text: res.bodyText, json: res.json, schemaMessage: schema.message, schemaClauses: [...(schema.clauses ?? [])] };
    return { status: res.status, text: res.bodyText, json: res.json, page: toPageRecord(res.json, q.startCursor) };
  }

  private url(q: EventQuery): string {
    const url = new URL(`${this.deps.target.baseUrl.replace(/\/+$/, '')}/event`);
    if (q.startCursor !== undefined) url.searchParams.set('start_cursor', q.startCursor);
    if (q.endCursor !== undefined) url.searchParams.set('end_cursor', q.endCursor);
    if (q.limit !== undefined) url.searchParams.set(this.deps.target.fields.event_limit_param ?? LIMIT_PARAM, String(q.limit));
    for (const [k, v] of Object.entries(q.filters ?? {})) url.searchParams.set(k, v);
    return url.toString();
  }

  /** POST {control_url}/events {count, entityCode?}: synthetic events appended at the head. */
  async append(count: number, entityCode: string | undefined, label: string, eventTypes?: readonly string[]): Promise<void> {
    const control = this.deps.target.controlUrl;
    if (!control) throw new FtfError('FTF_E_CAPABILITY_MISSING', 'appending events needs the sandbox control API (control_url)');
    const body = JSON.stringify({ count, ...(entityCode !== undefined ? { entityCode } : {}), ...(eventTypes !== undefined ? { eventTypes } : {}) });
    const res = await this.send({ method: 'POST', url: `${control.replace(/\/+$/, '')}/events`, headers: { 'content-type': 'application/json', accept: 'application/json' }, body }, label);
    if (res.status !== 200) {
      throw new PropertyViolation({ clause: 'HARNESS', message: `${label}: POST {control_url}/events answered ${res.status}: ${excerpt(res.bodyText, this.redact)}` });
    }
  }

  private async send(req: Omit<HttpRequest, 'timeoutMs'>, label: string): Promise<HttpResponse> {
    try {
      return await this.deps.transport.send({ ...req, timeoutMs: this.deps.target.timeouts.requestMs }, label);
    } catch (e) {
      const detail = this.redact(e instanceof Error ? e.message : String(e));
      throw new PropertyViolation({ clause: 'HARNESS', message: `${label}: ${req.method} ${this.relative(req.url)} got no HTTP response: ${detail}` });
    }
  }

  private relative(url: string): string {
    const base = this.deps.target.baseUrl.replace(/\/+$/, '');
    return this.redact(url.startsWith(base) ? url.slice(base.length) : url);
  }
}

/** The schema-valid body reduced to what the oracle needs. */
export function toPageRecord(body: unknown, startCursor: string | undefined): PageRecord {
  const b = body as { events: Array<{ uid: string; cursor: string; entityCode?: unknown; eventType?: unknown }>; pageInfo: PageRecord['pageInfo'] };
  const events: EventRef[] = b.events.map((e) => ({
    uid: e.uid,
    cursor: e.cursor,
    ...(typeof e.entityCode === 'string' ? { entityCode: e.entityCode } : {}),
    ...(typeof e.eventType === 'string' ? { eventType: e.eventType } : {}),
  }));
  const p = b.pageInfo;
  return {
    startCursor,
    events,
    pageInfo: {
      hasNextPage: p.hasNextPage,
      limit: p.limit,
      ...(p.endCursor !== undefined ? { endCursor: p.endCursor } : {}),
      ...(p.pageEndCursor !== undefined ? { pageEndCursor: p.pageEndCursor } : {}),
      ...(p.totalCount !== undefined ? { totalCount: p.totalCount } : {}),
    },
  };
}
