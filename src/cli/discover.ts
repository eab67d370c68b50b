/**
 * `init --discover`: asks the target what the scenarios need instead of leaving roles for the user to guess.
 * With the primary credential (secret from the environment variable the profile names) it lists the caller's
 * entities (GET {paths.entities}) and the indications (GET {paths.indications}) and picks a product per role
 * by the properties the spec names: primary = a Fixed product, fractional_minimum = a minimum below one
 * million, extendable = type Extendable. Roles whose defining field the spec does not name
 * (enforced/unenforced maximum: the enforceMaximum field name is "not shown") are never guessed: the
 * scenarios needing them are skipped with the role named until the user declares it.
 */
import { nextLink } from '../harness/engine/paging.js';
import type { RawListPaging } from '../harness/target/paging.js';
import { createAuthClient } from '../harness/auth/client.js';
import { getPointer } from '../harness/expressions/values.js';
import { Redactor } from '../harness/http/redactor.js';
import { createUndiciTransport } from '../harness/http/undici-transport.js';
import type { ResolvedTarget } from '../harness/target/types.js';
import { FtfError } from '../shared/errors.js';

export interface Discovered {
  entities: string[];
  indications: Record<string, string>;
  /** A paging setting proposed for the lists discovery read, from what their first answer showed (issue 25). */
  paging?: Partial<Record<'entities' | 'indications', { paging: RawListPaging; pointer: string; why: string }>>;
}

/**
 * What one list answer says about its paging: a `Link: <…>; rel="next"` header, a next token (`next`,
 * `nextCursor`, `next_cursor`), a `pageInfo`/`hasNext(Page)` flag beside the entries. Undefined: nothing seen
 * (one answer, or a last page that looks like one). A proposal, printed and written for the user to confirm.
 */
export function proposePaging(body: unknown, headers: Record<string, string>): { paging: RawListPaging; pointer: string; why: string } | undefined {
  const pointerOf = (b: Record<string, unknown>): string => ['items', 'data', 'results', 'content', 'records'].map((k) => `/${k}`).find((p) => Array.isArray(getPointer(b, p))) ?? '';
  if (headers.link && nextLink(headers.link) !== undefined) return { paging: 'link-header', pointer: typeof body === 'object' && body !== null && !Array.isArray(body) ? pointerOf(body as Record<string, unknown>) : '', why: 'a Link header with rel="next"' };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['next', 'nextCursor', 'next_cursor', 'nextPageToken']) {
    if (key in b) return { paging: { kind: 'cursor', param: key === 'nextPageToken' ? 'pageToken' : 'cursor', next: `/${key}` }, pointer: pointerOf(b), why: `a next token at /${key} (the query parameter is a guess: check it)` };
  }
  for (const info of ['pageInfo', 'page_info', 'meta', 'pagination', 'page']) {
    const v = b[info];
    if (typeof v !== 'object' || v === null) continue;
    for (const flag of ['hasNextPage', 'hasNext', 'has_next', 'has_more', 'hasMore']) {
      if (flag in (v as Record<string, unknown>)) return { paging: { kind: 'page-number', param: 'page', first: 1, has_next: `/${info}/${flag}` }, pointer: pointerOf(b), why: `a ${info}.${flag} flag (page numbers from 1 are a guess: check them)` };
    }
  }
  return undefined;
}

type Item = Record<string, unknown>;

const ROLE_PICKS: Array<[role: string, fits: (i: Item) => boolean]> = [
  ['primary', (i) => i.type === 'Fixed'],
  ['fractional_minimum', (i) => typeof i.minimum === 'number' && i.minimum < 1],
  ['extendable', (i) => i.type === 'Extendable'],
];

function list(body: unknown, pointer: string | undefined): Item[] {
  const v = getPointer(body, pointer ?? '');
  return Array.isArray(v) ? v.filter((x): x is Item => typeof x === 'object' && x !== null) : [];
}

export async function discover(target: ResolvedTarget): Promise<Discovered> {
  const transport = createUndiciTransport();
  const redactor = new Redactor();
  try {
    const bearer = await createAuthClient(target, transport, redactor).authorization('primary');
    const seen = new Map<string, { body: unknown; headers: Record<string, string> }>();
    const get = async (path: string): Promise<unknown> => {
      const r = await transport.send({ method: 'GET', url: `${target.baseUrl}${path}`, headers: { authorization: bearer ?? '', accept: 'application/json' }, timeoutMs: target.timeouts.requestMs });
      seen.set(path, { body: r.json, headers: r.headers });
      if (r.status !== 200) throw new FtfError('FTF_E_INIT_DISCOVERY', `GET ${target.baseUrl}${path} answered ${r.status}: ${redactor.redactText(r.bodyText.slice(0, 200))}`, { hint: 'check the profile paths, or run init without --discover and fill entities/indications by hand' });
      return r.json;
    };
    const entities = list(await get(target.paths.entities ?? '/entity'), target.fields.entities_list).map((e) => e.code).filter((c): c is string => typeof c === 'string' && c.length > 0);
    const products = list(await get(target.paths.indications ?? '/indication'), target.fields.indications_list);
    const indications: Record<string, string> = {};
    for (const [role, fits] of ROLE_PICKS) {
      const code = products.find(fits)?.code;
      if (typeof code === 'string' && code) indications[role] = code;
    }
    const paging: NonNullable<Discovered['paging']> = {};
    for (const [key, path] of [['entities', target.paths.entities ?? '/entity'], ['indications', target.paths.indications ?? '/indication']] as const) {
      const page = seen.get(path);
      const proposal = page && target.paging[key].kind === 'none' ? proposePaging(page.body, page.headers) : undefined;
      if (proposal) paging[key] = proposal;
    }
    return { entities, indications, ...(Object.keys(paging).length ? { paging } : {}) };
  } catch (e) {
    if (e instanceof FtfError) throw e;
    throw new FtfError('FTF_E_INIT_DISCOVERY', `discovery failed: ${redactor.redactText(e instanceof Error ? e.message : String(e))}`, { hint: 'check base_url/auth_url and the secret variable, or run init without --discover' });
  } finally {
    await transport.dispose?.();
  }
}
