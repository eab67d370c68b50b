/**
 * JUnit XML (reports/junit.xml) from the verdicts: the same scenario outcomes (outcome records, merged across
 * projects, waivers applied) the console summary, verdicts.json and the certificate are made of. One
 * <testsuite> per scenario family, one <testcase> per scenario: classname = family, name = scenario id,
 * file = the scenario's YAML path; its clause ids as <property name="clause">.
 *
 *   failed                    -> <failure type="<code>" message="<reason>">  (non-conformance)
 *   warning                   -> <failure> only with --fail-on should (then it fails the run); else it passes
 *                                with the warnings in <system-out>
 *   errored                   -> <error type="<code>" message="<reason>">    (target, input or harness trouble)
 *   skipped / not-applicable  -> <skipped message="<reason>"/>
 *   passed / waived           -> no child (waived: property waived_by and the waiver in <system-out>)
 * A scenario with no test in some environment (the embedded reference's production project runs a share,
 * scenario/environment.ts) carries <property name="not_run_in" value="<environment>">; every <testsuite> says
 * how many and why (property not_run_in_<environment>). Its verdict is that of the tests it had.
 *
 * Every text comes from the records and Playwright's JSON report, which the redacting reporter and the
 * recorder redacted before they were written; the post-run leak scan covers this file too.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ScenarioOutcome, VerdictSummary } from '../verdicts/verdicts.js';
import { doubtOf } from '../records/outcome.js';

/** One failure message in the XML is cut here (the full text is in the HTML/Allure reports). */
const MAX_MESSAGE_CHARS = 4000;

// Characters XML 1.0 does not allow at all (escaping cannot carry them): dropped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

export function xmlText(s: string): string {
  return s.replace(INVALID_XML, '').replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

export function xmlAttr(s: string): string {
  return s
    .replace(INVALID_XML, '')
    .replace(/[&<>"'\n\r\t]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c]!);
}

type Kind = 'passed' | 'failure' | 'error' | 'skipped';

/** What a scenario verdict is in JUnit terms (the table above). */
export function junitKind(s: Pick<ScenarioOutcome, 'verdict'>, failOn: VerdictSummary['failOn']): Kind {
  switch (s.verdict) {
    case 'failed':
      return 'failure';
    case 'warning':
      return failOn === 'should' ? 'failure' : 'passed';
    case 'errored':
      return 'error';
    case 'skipped':
    case 'not-applicable':
      return 'skipped';
    case 'passed':
    case 'waived':
      return 'passed';
  }
}

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);
const cut = (s: string): string => (s.length > MAX_MESSAGE_CHARS ? `${s.slice(0, MAX_MESSAGE_CHARS)}… (cut)` : s);

/** Environment -> the scenarios it has no test of (test-tally.ts notRun): the production project's share. */
type NotRun = ReadonlyMap<string, ReadonlySet<string>>;

function properties(s: ScenarioOutcome, notRun: NotRun): string[] {
  const r = s.record;
  const props: [string, string][] = [
    ...s.clauses.map((c): [string, string] => ['clause', c]),
    ...[...notRun].filter(([, ids]) => ids.has(s.id)).map(([env]): [string, string] => ['not_run_in', env]),
    ['verdict', s.verdict],
    ['level', s.level],
    ...(r.code ? [['code', r.code] as [string, string]] : []),
    ...(r.kind ? [['kind', r.kind] as [string, string]] : []),
    ...r.clauses.map((c): [string, string] => ['failed_clause', c]),
    ...doubtOf(r).map((d): [string, string] => ['in_doubt', d.clauses.join(' / ')]),
    ...(r.location ? [['location', r.location] as [string, string]] : []),
    ...(s.waivedBy ?? []).map((w): [string, string] => ['waived_by', w]),
  ];
  return props.map(([name, value]) => `        <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`);
}

/** The body of a <failure>/<error>: where it broke, which clauses, and the messages. */
function details(s: ScenarioOutcome): string {
  const r = s.record;
  const lines = [
    ...(r.code ? [`${r.code} (${r.kind ?? 'internal'})`] : []),
    ...(r.step ? [`step: ${r.step}`] : []),
    ...(r.location ? [`at ${r.location}`] : []),
    ...(r.clauses.length ? [`breaks ${r.clauses.join(', ')}`] : []),
    ...doubtOf(r).map((d) => `in doubt between ${d.clauses.join(' and ')} (one of them is broken): ${d.message ?? d.check}${d.location ? ` at ${d.location}` : ''}`),
    ...(s.messages.length ? ['', ...s.messages.map(cut)] : s.reason ? ['', s.reason] : []),
  ];
  return lines.join('\n');
}

function testcase(s: ScenarioOutcome, failOn: VerdictSummary['failOn'], notRun: NotRun): string {
  const kind = junitKind(s, failOn);
  const reason = s.reason ?? s.verdict;
  const open = `    <testcase classname="${xmlAttr(s.family)}" name="${xmlAttr(s.id)}" file="${xmlAttr(s.file)}" time="${seconds(s.durationMs)}">`;
  const body = [`      <properties>`, ...properties(s, notRun), `      </properties>`];
  const type = s.record.code ?? s.verdict;
  if (kind === 'failure') body.push(`      <failure type="${xmlAttr(type)}" message="${xmlAttr(cut(reason))}">${xmlText(details(s))}</failure>`);
  if (kind === 'error') body.push(`      <error type="${xmlAttr(type)}" message="${xmlAttr(cut(reason))}">${xmlText(details(s))}</error>`);
  if (kind === 'skipped') {
    const message = s.verdict === 'not-applicable' && !/^not applicable/i.test(reason) ? `not applicable: ${reason}` : reason;
    body.push(`      <skipped message="${xmlAttr(cut(message))}"/>`);
  }
  const out = [
    ...(kind === 'passed' && s.verdict === 'warning' ? s.messages : []),
    ...(s.verdict === 'waived' && s.waivedBy ? [`waived by ${s.waivedBy.join('; ')}`] : []),
  ];
  if (out.length) body.push(`      <system-out>${xmlText(out.map(cut).join('\n'))}</system-out>`);
  return [open, ...body, '    </testcase>'].join('\n');
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  ms: number;
}

function counts(list: readonly ScenarioOutcome[], failOn: VerdictSummary['failOn']): Counts {
  const c: Counts = { tests: list.length, failures: 0, errors: 0, skipped: 0, ms: 0 };
  for (const s of list) {
    const k = junitKind(s, failOn);
    if (k === 'failure') c.failures++;
    if (k === 'error') c.errors++;
    if (k === 'skipped') c.skipped++;
    c.ms += s.durationMs;
  }
  return c;
}

const countAttrs = (c: Counts): string => `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(c.ms)}"`;

export interface JunitOptions {
  /** Run-level facts shown as properties of every <testsuite> (e.g. the implementation version). */
  properties?: Record<string, string | undefined>;
  timestamp?: string;
}

export function junitXml(summary: VerdictSummary, options: JunitOptions = {}): string {
  const families = new Map<string, ScenarioOutcome[]>();
  for (const s of summary.scenarios) families.set(s.family, [...(families.get(s.family) ?? []), s]);
  const envs = Object.entries(summary.tests?.environments ?? {});
  const notRun: NotRun = new Map(envs.flatMap(([env, e]) => (e.notRun ? [[env, new Set(e.notRun.scenarios)]] : [])));
  const runProps: [string, string][] = [
    ['verdict', summary.overall],
    ['fail_on', summary.failOn],
    // Once per environment that runs a share: how many scenarios it has no test of, and why.
    ...envs.flatMap(([env, e]): [string, string][] => (e.notRun ? [[`not_run_in_${env}`, `${e.notRun.scenarios.length} scenario${e.notRun.scenarios.length === 1 ? '' : 's'}: ${e.notRun.reason}`]] : [])),
    ...Object.entries(options.properties ?? {}).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, v]])),
  ];
  const suites = [...families].map(([family, list]) => {
    const props = runProps.map(([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`);
    return [
      `  <testsuite name="${xmlAttr(family)}" ${countAttrs(counts(list, summary.failOn))}${options.timestamp ? ` timestamp="${xmlAttr(options.timestamp)}"` : ''}>`,
      '    <properties>',
      ...props,
      '    </properties>',
      ...list.map((s) => testcase(s, summary.failOn, notRun)),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ftf-conformance" ${countAttrs(counts(summary.scenarios, summary.failOn))}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

export function writeJunit(file: string, summary: VerdictSummary, options: JunitOptions = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, junitXml(summary, options));
}
