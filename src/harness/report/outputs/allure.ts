/**
 * Allure support: the metadata a conformance test carries (epic = spec area, feature = scenario family,
 * story = scenario, severity from the clause level, tags, links to clause ids), the failure categories
 * (categories.json) and the environment block (environment.properties) written into allure-results/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_DUTY_AREAS } from '../../client/areas.js';
import { SPEC_AREAS, specArea, type ClauseCatalogue } from '../../spec/clauses.js';
import { doubtOf, outcomeLine, type OutcomeRecord } from '../records/outcome.js';

export interface ScenarioMeta {
  id: string;
  title: string;
  /** Scenario family = folder under specs/. */
  family: string;
  clauses: string[];
  tags?: string[];
  /** The scenario's level (Scenario.level); else derived from the catalogue, else must. */
  level?: 'must' | 'should';
  /** The scenario's own description (YAML `description`), put before the clauses in the Allure description. */
  description?: string;
}

export interface AllureMetadata {
  labels: { name: string; value: string }[];
  links: { name: string; url: string; type: string }[];
  /** The test's description (markdown): the scenario's description, then each covered clause with its wording. */
  description: string;
  /**
   * The labels as Playwright annotations (`allure.label.<name>`), which allure-playwright turns into labels at declare
   * time, and the description (an annotation of type `description`, which allure-playwright makes the description).
   */
  annotations: { type: string; description: string }[];
}

/** Base of clause links; FTF_CLAUSE_URL overrides (e.g. an internal copy of the spec). `{id}` is replaced. */
export const clauseUrl = (id: string): string => (process.env.FTF_CLAUSE_URL ?? 'clauses.yaml#{id}').replace('{id}', encodeURIComponent(id));

export function allureMetadataFor(meta: ScenarioMeta, catalogue?: ClauseCatalogue): AllureMetadata {
  const areas = [...new Set(meta.clauses.map(specArea))];
  const levels = meta.clauses.map((id) => catalogue?.byId.get(id)?.level ?? 'must');
  const shouldOnly = meta.level ? meta.level === 'should' : levels.length > 0 && levels.every((l) => l === 'should');
  const severity = shouldOnly ? 'normal' : 'critical';
  const labels = [
    ...(areas.length ? areas : ['Other']).map((value) => ({ name: 'epic', value })),
    { name: 'feature', value: meta.family },
    { name: 'story', value: meta.title },
    { name: 'severity', value: severity },
    ...(meta.tags ?? []).map((t) => ({ name: 'tag', value: t.replace(/^@/, '') })),
    ...meta.clauses.map((value) => ({ name: 'clause', value })),
  ];
  const links = meta.clauses.map((id) => ({ name: id, url: clauseUrl(id), type: 'clause' }));
  // Tags already reach Allure from Playwright's own tags; keep annotations to what Playwright does not send.
  const description = describeClauses(meta, catalogue);
  const annotations = [
    ...labels.filter((l) => l.name !== 'tag').map((l) => ({ type: `allure.label.${l.name}`, description: l.value })),
    { type: 'description', description },
  ];
  return { labels, links, description, annotations };
}

/** Markdown: the scenario's description, then `Covers:` and one item per clause (id, level, where the spec says it, its wording). */
export function describeClauses(meta: Pick<ScenarioMeta, 'clauses' | 'description'>, catalogue?: ClauseCatalogue): string {
  const items = meta.clauses.map((id) => {
    const c = catalogue?.byId.get(id);
    return c ? `- **${id}** (${c.level}; ${c.ref}): ${c.says.trim()}` : `- **${id}** (not in clauses.yaml)`;
  });
  const covers = items.length ? ['Covers:', '', ...items].join('\n') : 'Covers no clause.';
  return meta.description?.trim() ? `${meta.description.trim()}\n\n${covers}` : covers;
}

/**
 * Failure classes, from the outcome record (never from error text). The Allure reporter (allure-reporter.ts)
 * sets each result's status from the record (errored = broken, failed = failed, skipped and not applicable =
 * skipped) and starts its status message with the record's line (`outcome: <status> <kind> <code>
 * checks=<checks> clauses=<clauses>`, outcome.ts outcomeLine), written by the harness from the record's typed
 * fields; each category matches that first line only (anchored at the start, where no response body can write).
 * Errored results are grouped by their kind (target, input, internal), failed ones by the failing check's kind.
 * Allure takes the first match.
 */
const firstLine = (core: string): string => `^outcome: ${core}[^\\n]*(\\n[\\s\\S]*)?$`;

export interface AllureCategory {
  name: string;
  messageRegex?: string;
  traceRegex?: string;
  matchedStatuses: string[];
}

export const CATEGORIES: readonly AllureCategory[] = [
  { name: 'Scenario timeout', messageRegex: firstLine('errored target FTF_E_SCENARIO_TIMEOUT '), matchedStatuses: ['broken'] },
  { name: 'Target error', messageRegex: firstLine('errored target '), matchedStatuses: ['broken'] },
  { name: 'Invalid input (scenario, profile)', messageRegex: firstLine('errored input '), matchedStatuses: ['broken'] },
  { name: 'Harness error', messageRegex: firstLine('errored internal '), matchedStatuses: ['broken'] },
  // A check whose failure shows one of several clauses broken, not which (verdicts.ts in-doubt).
  { name: 'In doubt between clauses', messageRegex: firstLine('failed [^\\n]* in_doubt='), matchedStatuses: ['failed'] },
  { name: 'Race / concurrency', messageRegex: firstLine('failed [^\\n]*checks=(?:[^ \\n]*,)?count[, ]'), matchedStatuses: ['failed'] },
  { name: 'Schema violation', messageRegex: firstLine('failed [^\\n]*checks=(?:[^ \\n]*,)?schema[, ]'), matchedStatuses: ['failed'] },
  { name: 'Wrong status', messageRegex: firstLine('failed [^\\n]*checks=(?:[^ \\n]*,)?status[, ]'), matchedStatuses: ['failed'] },
  { name: 'Wrong detail text', messageRegex: firstLine('failed [^\\n]*checks=(?:[^ \\n]*,)?detail[, ]'), matchedStatuses: ['failed'] },
  // Response rules (src/harness/rules): checks named rule:<id>, applied to every response by the engine.
  { name: 'Response rule (failure layout / fixed text)', messageRegex: firstLine('failed [^\\n]*checks=(?:[^ \\n]*,)?rule:'), matchedStatuses: ['failed'] },
  { name: 'Property violation', messageRegex: firstLine('failed [^\\n]*checks=(?:[^ \\n]*,)?property[, ]'), matchedStatuses: ['failed'] },
  // Client conformance (client/allure.ts): a broken CL-* duty, by its area; the line names checks=client:<area>.
  ...CLIENT_DUTY_AREAS.map((a) => ({ name: `Client duty broken: ${a.name}`, messageRegex: firstLine(`failed client [^\\n]*checks=client:${a.slug} `), matchedStatuses: ['failed'] })),
  { name: 'Other check failure', messageRegex: firstLine('failed '), matchedStatuses: ['failed'] },
  { name: 'No outcome record', matchedStatuses: ['failed', 'broken'] },
];

/** The Allure status of a record: errored = broken (the target or the harness broke, nothing was judged). */
export function allureStatusOf(record: Pick<OutcomeRecord, 'status'>): 'passed' | 'failed' | 'broken' | 'skipped' {
  switch (record.status) {
    case 'failed':
      return 'failed';
    case 'errored':
      return 'broken';
    case 'skipped':
    case 'not-applicable':
      return 'skipped';
    default:
      return 'passed';
  }
}

/** The status message of a record: its outcome line first (what the categories match), then its reason. */
export function allureMessageOf(record: OutcomeRecord): string | undefined {
  if (record.status === 'passed' || record.status === 'waived') return record.warnings.length ? `${outcomeLine(record)}\nwarnings: ${record.warnings.map((w) => `[${w.check}] ${w.message}`).join('\n')}` : undefined;
  const doubts = doubtOf(record).map((d) => `in doubt between ${d.clauses.join(' and ')}: ${d.message ?? d.check}${d.location ? ` (${d.location})` : ''}`);
  return [`${outcomeLine(record)}`, ...(record.reason ? [record.reason] : []), ...doubts].join('\n');
}

export interface AllureEnvironment {
  targetName: string;
  baseUrl: string;
  authUrl?: string;
  environment: string;
  capabilities: string[];
  specSha256: string;
  harnessVersion: string;
  harnessCommit?: string;
  /** The implementation under test (implementation.ts describeImplementation), when the profile says how to know it. */
  implementationVersion?: string;
}

/** Java properties escaping (Allure reads environment.properties with a properties parser). */
const prop = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/([=:#!])/g, '\\$1');

/** environment.properties read back (the reverse of `prop`): what the run recorded, for `report` and the history key. */
export function readAllureEnvironment(resultsDir: string): Record<string, string> {
  const file = join(resultsDir, 'environment.properties');
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '' || /^\s*[#!]/.test(line)) continue;
    const sep = /(?<!\\)(?:\\\\)*[=:]/.exec(line);
    if (!sep) continue;
    const end = sep.index + sep[0].length;
    out[unprop(line.slice(0, end - 1))] = unprop(line.slice(end));
  }
  return out;
}

const unprop = (s: string): string => s.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

export function writeAllureSupportFiles(resultsDir: string, env: AllureEnvironment): void {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'categories.json'), JSON.stringify(CATEGORIES, null, 2));
  const entries: [string, string][] = [
    ['Target', env.targetName],
    ['Base.URL', env.baseUrl],
    ...(env.authUrl ? ([['Auth.URL', env.authUrl]] as [string, string][]) : []),
    ['Environment', env.environment],
    ['Capabilities', env.capabilities.join(', ') || 'none'],
    ['Spec', 'ftf-interface-spec.md'],
    ['Spec.sha256', env.specSha256],
    ['Harness.version', env.harnessVersion],
    ...(env.harnessCommit ? ([['Harness.commit', env.harnessCommit]] as [string, string][]) : []),
    ...(env.implementationVersion ? ([['Implementation.version', env.implementationVersion]] as [string, string][]) : []),
  ];
  writeFileSync(join(resultsDir, 'environment.properties'), entries.map(([k, v]) => `${prop(k)}=${prop(v)}`).join('\n') + '\n');
}

export { SPEC_AREAS };
