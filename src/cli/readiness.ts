/**
 * What `doctor` checks beyond "the target answers": that a run could pass on a correct target. Every declared
 * path answers (a 404 means the profile names a route the target does not have), every list/record pointer
 * resolves (the answer, read through the profile's `fields` pointers, satisfies the operation map's schema:
 * the same check a scenario makes), every indication role names a product of the kind the role promises,
 * entities resolve, and every scenario that needs a role or capability the profile lacks is listed as
 * skipped with the reason. Table-driven: a new `paths` key is probed as soon as the profile declares it.
 */
import { checkSchema } from '../harness/checks/schema.js';
import { getPointer } from '../harness/expressions/values.js';
import { targetView } from '../harness/engine/target-view.js';
import type { PropertyTest } from '../harness/properties/catalogue.js';
import type { Scenario } from '../harness/scenario/types.js';
import { planSelection, propertySkip } from '../harness/scenario/plan.js';
import { clauseCoverage, coverageLines, type ClauseCoverage, type CoverageInput } from '../harness/report/verdicts/clause-coverage.js';
import type { ClauseCatalogue } from '../harness/spec/clauses.js';
import { schemaRegistry } from '../harness/schemas/registry.js';
import type { ResolvedTarget } from '../harness/target/types.js';

export type Level = 'ok' | 'warn' | 'fail' | 'info';
export type Say = (level: Level, text: string) => void;

export interface Answer {
  status: number;
  json: unknown;
  text: string;
}
/** GET a path relative to base_url with the primary credential (the caller redacts and bounds it). */
export type Get = (path: string) => Promise<Answer>;

/** Paths a GET proves nothing about (write-only operations): not probed. */
const WRITE_ONLY = new Set(['webhook', 'checkpoint_delete']);

/** Where a template's placeholders get a sample value, per paths key (else by the placeholder's name). */
const SAMPLES: Record<string, Record<string, Sample>> = {
  cell: { code: 'cell' },
  entity: { code: 'entity' },
  entity_users: { code: 'entity' },
  holdings: { entity_code: 'entity' },
  holding_extensions: { entity_code: 'entity', holding_uid: 'holding' },
};
type Sample = 'entity' | 'cell' | 'holding';

/** Indication roles and what the product they name must be (spec: Amounts; the minimum is in millions). */
const INDICATION_ROLES: Record<string, { promise: string; holds: (i: Record<string, unknown>) => boolean }> = {
  fractional_minimum: { promise: 'a minimum below one million (minimum < 1)', holds: (i) => typeof i.minimum === 'number' && i.minimum < 1 },
  extendable: { promise: 'type Extendable', holds: (i) => i.type === 'Extendable' },
};

function firstItem(list: unknown): Record<string, unknown> | undefined {
  return Array.isArray(list) && list.length > 0 && typeof list[0] === 'object' && list[0] !== null ? (list[0] as Record<string, unknown>) : undefined;
}

/** Probes every declared path (GET), checking the answer is not 404 and satisfies its schema through the profile's pointers. */
export async function checkPaths(target: ResolvedTarget, get: Get, say: Say): Promise<void> {
  const schemas = schemaRegistry({ paths: target.paths, fields: target.fields });
  const samples: Partial<Record<Sample, string>> = {};
  if (target.entities.allowed[0]) samples.entity = target.entities.allowed[0];
  const order = Object.keys(target.paths).sort((a, b) => Object.keys(SAMPLES[a] ?? {}).length - Object.keys(SAMPLES[b] ?? {}).length);
  for (const key of order) {
    const template = target.paths[key]!;
    if (WRITE_ONLY.has(key)) {
      say('info', `paths.${key} ${template}: not probed (a write operation)`);
      continue;
    }
    let unfilled: string | undefined;
    const path = template.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const source: Sample | undefined = SAMPLES[key]?.[name] ?? (/entity/.test(name) ? 'entity' : undefined);
      const value = source ? samples[source] : undefined;
      if (value === undefined) unfilled ??= name;
      return value === undefined ? whole : encodeURIComponent(value);
    });
    if (unfilled !== undefined) {
      say('info', `paths.${key} ${template}: not probed (no sample value for {${unfilled}} on this target)`);
      continue;
    }
    const a = await get(path);
    if (a.status === 404) {
      say('fail', `paths.${key} ${template}: GET ${path} answered 404; the target has no such route (set paths.${key} in the profile)`);
      continue;
    }
    if (a.status < 200 || a.status > 299) {
      say('warn', `paths.${key} ${template}: GET ${path} answered ${a.status}`);
      continue;
    }
    const check = checkSchema({
      response: { method: 'GET', url: path, status: a.status, headers: {}, body: a.json, text: a.text },
      registry: schemas, mode: 'auto', base: 'api', pathname: path,
    });
    if (check && !check.passed) say('fail', `paths.${key}: the answer does not read as the profile says (check fields.* pointers): ${check.message}`);
    else say('ok', `paths.${key} ${template}: GET ${path} answered ${a.status}${check ? ', pointers resolve' : ''}`);
    // Samples for the templates probed after this one.
    if (key === 'cells') samples.cell ??= String(firstItem(getPointer(a.json, target.fields.cells_list ?? ''))?.code ?? '') || undefined;
    if (key === 'holdings') samples.holding ??= String(firstItem(getPointer(a.json, target.fields.holdings_list ?? ''))?.uid ?? '') || undefined;
  }
}

/** Each indication role names a product the target knows, of the kind the role promises; entities resolve. */
export async function checkRoles(target: ResolvedTarget, get: Get, say: Say): Promise<void> {
  for (const [role, code] of Object.entries(target.indications)) {
    const a = await get(`/indication/${encodeURIComponent(code)}`);
    if (a.status !== 200 || typeof a.json !== 'object' || a.json === null) {
      say('fail', `indications.${role} = ${code}: GET /indication/${code} answered ${a.status} (name a product the target offers, or leave the role out)`);
      continue;
    }
    const rule = INDICATION_ROLES[role];
    if (rule && !rule.holds(a.json as Record<string, unknown>)) say('fail', `indications.${role} = ${code}: the role needs ${rule.promise}; this product does not have it`);
    else say('ok', `indications.${role} = ${code}: found`);
  }
  const entityPath = target.paths.entity;
  for (const code of target.entities.allowed) {
    if (!entityPath) break;
    const a = await get(entityPath.replace(/\{[^}]+\}/, encodeURIComponent(code)));
    if (a.status === 200) say('ok', `entities.allowed ${code}: readable`);
    else say('fail', `entities.allowed ${code}: GET ${entityPath} answered ${a.status} (list only entities the primary credential may read)`);
  }
}

/**
 * Every credential besides `primary` works: OAuth credentials get a token (authorization_code through the
 * profile's consent or refresh token), a sandbox API key opens the health check. A production refusal-probe
 * key is only ever sent to be refused, by its scenario: not here.
 */
export async function checkCredentials(
  target: ResolvedTarget,
  authorization: (name: string) => Promise<string | undefined>,
  getWith: (authorization: string, path: string) => Promise<Answer>,
  describe: (e: unknown) => string,
  say: Say,
): Promise<void> {
  for (const cred of Object.values(target.credentials)) {
    if (cred.name === 'primary' || cred.refusalProbe) continue;
    if (cred.kind === 'authorization_code' && !cred.consent && !cred.refreshToken) {
      say('info', `credential "${cred.name}": no consent strategy or refresh token; the scenarios needing it are skipped`);
      continue;
    }
    try {
      const header = await authorization(cred.name);
      if (cred.kind === 'api_key') {
        const a = await getWith(header ?? '', target.paths.health ?? '/health');
        if (a.status === 200) say('ok', `credential "${cred.name}" (api_key) opens the health check`);
        else say('fail', `credential "${cred.name}" (api_key): the health check answered ${a.status} with it`);
      } else {
        say('ok', `credential "${cred.name}" (${cred.kind}) gets a token`);
      }
    } catch (e) {
      say('fail', `credential "${cred.name}" (${cred.kind}) failed: ${describe(e)}`);
    }
  }
}

/**
 * Which scenarios and property tests a run on `target` will skip and why (the plan every command shares,
 * scenario/plan.ts: a clock-less form runs in its scenario's place), and the coverage that gives
 * (report/verdicts/clause-coverage.ts): returned so `doctor` can say "ready, partial".
 */
export function reportSkips(target: ResolvedTarget, scenarios: readonly Scenario[], say: Say, properties: readonly PropertyTest[] = [], catalogue?: Pick<ClauseCatalogue, 'clauses'>): ClauseCoverage | undefined {
  const planTarget = { capabilities: target.capabilities, view: targetView(target) };
  const plans = planSelection(scenarios, planTarget);
  const predicted: CoverageInput[] = [
    ...plans.map((p) => ({ id: p.scenario.id, verdict: p.skip ? 'skipped' as const : 'passed' as const, clauses: p.runs.covers, ...(p.skip ? { reason: p.skip } : {}) })),
    ...properties.map((x) => {
      const skip = propertySkip(x, planTarget);
      return { id: x.id, verdict: skip ? 'skipped' as const : 'passed' as const, clauses: x.covers, ...(skip ? { reason: skip } : {}) };
    }),
  ];
  const reasons = new Map<string, string[]>();
  for (const t of predicted) if (t.reason) reasons.set(t.reason, [...(reasons.get(t.reason) ?? []), t.id]);
  const skipped = [...reasons.values()].flat().length;
  const forms = plans.filter((p) => p.via && !p.skip);
  say('info', `${predicted.length - skipped} of ${predicted.length} scenarios and property tests will run${forms.length ? ` (${forms.length} as their clock-less form: ${forms.map((p) => `${p.scenario.id} as ${p.via}`).join(', ')})` : ''}`);
  for (const [reason, ids] of reasons) say('info', `skipped (${reason}): ${ids.join(', ')}`);
  if (!catalogue) return undefined;
  const coverage = clauseCoverage(predicted, catalogue);
  say(coverage.status === 'full' ? 'ok' : 'warn', `coverage this profile will give (if every scenario that runs passes): ${coverageLines(coverage).map((l) => l.trim()).join('; ')}`);
  return coverage;
}
