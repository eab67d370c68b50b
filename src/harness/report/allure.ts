/**
 * Allure support: the metadata a conformance test carries (epic = spec area, feature = scenario family,
 * story = scenario, severity from the clause level, tags, links to clause ids), the failure categories
 * (categories.json) and the environment block (environment.properties) written into allure-results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPEC_AREAS, specArea, type ClauseCatalogue } from '../spec/clauses.js';

export interface ScenarioMeta {
  id: string;
  title: string;
  /** Scenario family = folder under specs/. */
  family: string;
  clauses: string[];
  tags?: string[];
  /** The scenario's level (Scenario.level); else derived from the catalogue, else must. */
  level?: 'must' | 'should';
}

export interface AllureMetadata {
  labels: { name: string; value: string }[];
  links: { name: string; url: string; type: string }[];
  /** The labels as Playwright annotations (`allure.label.<name>`), which allure-playwright turns into labels at declare time. */
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
  const annotations = labels.filter((l) => l.name !== 'tag').map((l) => ({ type: `allure.label.${l.name}`, description: l.value }));
  return { labels, links, annotations };
}

/**
 * Failure classes. The regexes match the messages the checks and the engine produce (src/harness/checks,
 * src/harness/engine) and Playwright's own timeout text. Order matters: Allure takes the first match.
 */
/** Matches anywhere in a multi-line message, in Allure 3 (RegExp.test) and Allure 2 (Java full match) alike. */
const anywhere = (core: string): string => `[\\s\\S]*(?:${core})[\\s\\S]*`;

export interface AllureCategory {
  name: string;
  messageRegex?: string;
  matchedStatuses: string[];
}

const ANY: string[] = ['failed', 'broken'];

/** Check failures read "[<check>] <exchange>: expected ..., got ..." (src/harness/checks, engine/errors.ts). */
export const CATEGORIES: readonly AllureCategory[] = [
  { name: 'Timeout or target error', messageRegex: anywhere('FTF_E_TARGET_|FTF_E_BOUND_EXCEEDED|StepError:|no complete response within|Test timeout of|Timeout \\d+ms exceeded|ECONNREFUSED|ECONNRESET|socket hang up'), matchedStatuses: ANY },
  { name: 'Race / concurrency', messageRegex: anywhere('\\[count\\]|concurren|exactly one'), matchedStatuses: ANY },
  { name: 'Schema violation', messageRegex: anywhere('\\[schema\\]|does not match [\\w-]+|must have required property'), matchedStatuses: ANY },
  { name: 'Wrong status', messageRegex: anywhere('\\[status\\]|expected status'), matchedStatuses: ANY },
  { name: 'Wrong detail text', messageRegex: anywhere('\\[detail\\]|expected detail'), matchedStatuses: ANY },
  { name: 'Harness error', messageRegex: anywhere('FTF_E_(?:INTERNAL|SCENARIO|EXPRESSION)|TypeError:|ReferenceError:|scenario file is invalid'), matchedStatuses: ANY },
  { name: 'Other check failure', matchedStatuses: ['failed'] },
  { name: 'Broken test', matchedStatuses: ['broken'] },
];

export interface AllureEnvironment {
  targetName: string;
  baseUrl: string;
  authUrl?: string;
  environment: string;
  capabilities: string[];
  specSha256: string;
  harnessVersion: string;
  harnessCommit?: string;
}

/** Java properties escaping (Allure reads environment.properties with a properties parser). */
const prop = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/([=:#!])/g, '\\$1');

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
  ];
  writeFileSync(join(resultsDir, 'environment.properties'), entries.map(([k, v]) => `${prop(k)}=${prop(v)}`).join('\n') + '\n');
}

export { SPEC_AREAS };
