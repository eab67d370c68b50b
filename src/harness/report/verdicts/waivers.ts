/**
 * Waivers: known failures of a target, each with reason, owner and expiry. A waived failure is reported as
 * `waived`; an expired waiver, or one that no longer matches a failure (stale), fails the run so waivers
 * do not rot. In certification, waivers touching a must-clause are ignored.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { FtfError } from '../../../shared/errors.js';
import { fileValidator } from '../../schemas/ajv.js';
import type { ClauseCatalogue } from '../../spec/clauses.js';
import { describeYamlProblem, fieldName, isMissingModule, pointerSegments, readYaml } from '../../yaml/source.js';
import type { ScenarioOutcome } from './verdicts.js';

export interface Waiver {
  scenario?: string;
  clause?: string;
  reason: string;
  owner: string;
  expires: string;
  /** file:line of the entry, for messages. */
  where: string;
}

const SCHEMA_URL = new URL('./waivers.schema.json', import.meta.url);

/** `<profile dir>/<profile basename>.waivers.yaml`, e.g. fixtures/targets/sandbox.waivers.yaml. */
export function defaultWaiversFile(profileFile: string): string {
  return join(dirname(profileFile), `${basename(profileFile, extname(profileFile))}.waivers.yaml`);
}

export function loadWaivers(file: string): Waiver[] {
  if (!existsSync(file)) return [];
  let source: ReturnType<typeof readYaml>;
  try {
    source = readYaml(file);
  } catch (cause) {
    if (isMissingModule(cause)) throw cause;
    throw new FtfError('FTF_E_WAIVERS_INVALID', `waivers file is unreadable (${(cause as NodeJS.ErrnoException).code ?? 'error'})`, { location: { file }, cause });
  }
  const first = source.problems[0];
  if (first) {
    const all = source.problems.map((p) => `${file}:${p.line}:${p.column} ${describeYamlProblem(p)}`).join('; ');
    throw new FtfError('FTF_E_WAIVERS_INVALID', `waivers file is not valid YAML: ${all}`, {
      location: { file, line: first.line, column: first.column },
    });
  }
  const value: unknown = source.value ?? { waivers: [] };
  const validateFn = fileValidator(SCHEMA_URL);
  if (!validateFn(value)) {
    // The oneOf branches report "scenario/clause is required"; the oneOf error itself says it better.
    const errors = (validateFn.errors ?? []).filter((x) => !(x.keyword === 'required' && ['scenario', 'clause'].includes(String(x.params.missingProperty))));
    errors.sort((a, b) => Number(a.keyword === 'oneOf') - Number(b.keyword === 'oneOf'));
    const e = errors[0] ?? validateFn.errors![0]!;
    const segments = pointerSegments(e.instancePath);
    const field = [...segments, ...(e.keyword === 'required' ? [String(e.params.missingProperty)] : []), ...(e.keyword === 'additionalProperties' ? [String(e.params.additionalProperty)] : [])];
    const at = source.locate(segments, 'value');
    throw new FtfError('FTF_E_WAIVERS_INVALID', `waiver ${fieldName(field) || '(root)'} ${describe(e)}`, {
      location: { file, line: at.line, column: at.column, field: fieldName(field) },
      hint: 'each waiver needs scenario or clause, reason, owner and expires: YYYY-MM-DD (see docs/cli.md#waivers)',
    });
  }
  const list = (value as { waivers: Omit<Waiver, 'where'>[] }).waivers;
  return list.map((w, i) => {
    const at = source.locate(['waivers', String(i)], 'value');
    if (!isRealDate(w.expires)) {
      throw new FtfError('FTF_E_WAIVERS_INVALID', `waiver waivers[${i}].expires '${w.expires}' is not a calendar date`, {
        location: { file, line: at.line, column: at.column, field: `waivers[${i}].expires` },
      });
    }
    return { ...w, where: `${file}:${at.line}` };
  });
}

function describe(e: ErrorObject): string {
  if (e.keyword === 'oneOf') return 'must name exactly one of scenario or clause';
  if (e.keyword === 'required') return 'is required';
  if (e.keyword === 'additionalProperties') return 'is not a known field (allowed: scenario, clause, reason, owner, expires)';
  if (e.keyword === 'pattern' && e.instancePath.endsWith('/expires')) return 'must be a date YYYY-MM-DD';
  return e.message ?? 'is invalid';
}

function isRealDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export interface WaiverOptions {
  /** Today as YYYY-MM-DD (UTC); injectable for tests. */
  today?: string;
  /** Certification: waivers touching a must-clause are ignored. */
  certification?: boolean;
  /** The run was filtered (--grep/--tag/--shard): a waiver whose scenario did not run is not stale. */
  filtered?: boolean;
}

export interface WaiverResult {
  scenarios: ScenarioOutcome[];
  /** Run-failing problems: expired or stale waivers. */
  problems: string[];
  notes: string[];
  applied: Waiver[];
}

const label = (w: Waiver): string => (w.scenario ? `scenario '${w.scenario}'` : `clause ${w.clause}`);
const isFailure = (s: ScenarioOutcome): boolean => s.verdict === 'failed' || s.verdict === 'warning';

export function applyWaivers(scenarios: ScenarioOutcome[], waivers: Waiver[], catalogue: ClauseCatalogue, options: WaiverOptions = {}): WaiverResult {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const problems: string[] = [];
  const notes: string[] = [];
  const active: Waiver[] = [];
  for (const w of waivers) {
    if (w.expires < today) {
      problems.push(`waiver for ${label(w)} (${w.where}, owner ${w.owner}) expired on ${w.expires}: fix the failure or renew the waiver with a new date`);
    } else if (options.certification && touchesMust(w, scenarios, catalogue)) {
      notes.push(`certification ignores the waiver for ${label(w)} (${w.where}): it covers a must-clause`);
    } else {
      active.push(w);
    }
  }
  const used = new Set<Waiver>();
  const out = scenarios.map((s) => {
    if (!isFailure(s)) return s;
    const byScenario = active.filter((w) => w.scenario !== undefined && (w.scenario === s.id || w.scenario === s.title));
    const byClause = s.clauses.map((c) => active.filter((w) => w.clause === c));
    byClause.flat().forEach((w) => used.add(w)); // a clause waiver "matches" a failure of any scenario covering it
    const allClausesWaived = s.clauses.length > 0 && byClause.every((ws) => ws.length > 0);
    if (byScenario.length === 0 && !allClausesWaived) return s;
    byScenario.forEach((w) => used.add(w));
    const by = byScenario.length > 0 ? byScenario : byClause.flat();
    return { ...s, verdict: 'waived' as const, record: { ...s.record, status: 'waived' as const }, waivedBy: by.map((w) => `${label(w)} (${w.owner}, until ${w.expires}): ${w.reason}`) };
  });
  for (const w of active) {
    if (used.has(w)) continue;
    const named = scenarios.filter((s) => (w.scenario ? s.id === w.scenario || s.title === w.scenario : s.clauses.includes(w.clause!)));
    const ran = named.filter((s) => s.verdict !== 'skipped' && s.verdict !== 'not-applicable');
    if (ran.length > 0) problems.push(`waiver for ${label(w)} (${w.where}) is stale: it ran and was ${[...new Set(ran.map((s) => s.verdict))].join('/')}, not failed; delete it`);
    else if (named.length > 0) notes.push(`waiver for ${label(w)} (${w.where}) not checked: its scenarios were skipped`);
    else if (options.filtered) notes.push(`waiver for ${label(w)} (${w.where}) not checked: nothing it names ran in this filtered run`);
    else problems.push(`waiver for ${label(w)} (${w.where}) is stale: no scenario of this run matches it; delete it`);
  }
  return { scenarios: out, problems, notes, applied: [...used] };
}

function touchesMust(w: Waiver, scenarios: ScenarioOutcome[], catalogue: ClauseCatalogue): boolean {
  if (w.clause) return (catalogue.byId.get(w.clause)?.level ?? 'must') === 'must';
  const s = scenarios.find((x) => x.id === w.scenario || x.title === w.scenario);
  return !s || s.level === 'must';
}
