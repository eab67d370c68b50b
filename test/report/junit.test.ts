/**
 * reports/junit.xml from the verdicts (src/harness/report/outputs/junit.ts): well-formed XML whose <testsuite> and
 * <testsuites> counts match the elements they hold; failed -> <failure>, errored -> <error>, skipped and
 * not-applicable -> <skipped message=reason>; classname = family, name = scenario id, file = YAML path,
 * clause ids as properties.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { junitKind, junitXml } from '../../src/harness/report/outputs/junit.js';
import { summarize, type ScenarioOutcome, type VerdictSummary } from '../../src/harness/report/verdicts/verdicts.js';
import { catalogue, demoReport, outcomes } from './helpers.js';

type Node = Record<string, unknown>;
const ARRAYS = new Set(['testsuite', 'testcase', 'property', 'failure', 'error', 'skipped', 'system-out']);
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ARRAYS.has(name), parseAttributeValue: false, trimValues: false });

function parse(xml: string): { root: Node; suites: Node[] } {
  const valid = XMLValidator.validate(xml);
  assert.equal(valid, true, `not well-formed: ${JSON.stringify(valid)}`);
  const doc = parser.parse(xml) as { testsuites: Node };
  return { root: doc.testsuites, suites: (doc.testsuites.testsuite as Node[] | undefined) ?? [] };
}

const cases = (suite: Node): Node[] => (suite.testcase as Node[] | undefined) ?? [];
const count = (list: Node[], child: string): number => list.filter((c) => Array.isArray(c[child])).length;
const props = (c: Node): { name: string; value: string }[] =>
  (((c.properties as Node | undefined)?.property as Node[] | undefined) ?? []).map((p) => ({ name: String(p['@name']), value: String(p['@value']) }));

/** The attribute counts of a <testsuite>/<testsuites> against the elements it holds. */
function assertCounts(node: Node, list: Node[]): void {
  assert.equal(Number(node['@tests']), list.length, 'tests=');
  assert.equal(Number(node['@failures']), count(list, 'failure'), 'failures=');
  assert.equal(Number(node['@errors']), count(list, 'error'), 'errors=');
  assert.equal(Number(node['@skipped']), count(list, 'skipped'), 'skipped=');
}

/** The demo report's five scenarios moved to YAML files of two families, plus a not-applicable and a waived one. */
function fixtureSummary(failOn: 'must' | 'should' = 'must'): VerdictSummary {
  const base = outcomes(demoReport()).map((o, i): ScenarioOutcome => ({ ...o, family: i % 2 ? 'resources' : 'errors', file: `specs/${i % 2 ? 'resources' : 'errors'}/${o.id.slice(5)}.yaml` }));
  const passed = base.find((o) => o.verdict === 'passed')!;
  const extra: ScenarioOutcome[] = [
    { ...passed, id: 'demo.na', title: 'demo.na: n/a', verdict: 'not-applicable', reason: 'the target has no webhooks', record: { ...passed.record, status: 'not-applicable', reason: 'the target has no webhooks' } },
    { ...passed, id: 'demo.waived', title: 'demo.waived: w', verdict: 'waived', waivedBy: ['clause:RES-HEALTH (ops, until 2099-01-01): known'] },
    // Text a target controls reaches the reasons: markup, quotes, a CDATA end and characters XML cannot carry.
    { ...base.find((o) => o.verdict === 'failed')!, id: 'demo.hostile', title: 'demo.hostile: h', reason: `body <x a="1"> & ]]> 'q' \u0001\u0008\uffff end`, messages: [`<b>&amp;</b>\u0000 ]]> done`] },
  ];
  return summarize([...base, ...extra], catalogue, { failOn });
}

describe('JUnit XML from the verdicts', () => {
  it('is well-formed and every count matches its elements, per family suite and in total', () => {
    const summary = fixtureSummary();
    const { root, suites } = parse(junitXml(summary, { properties: { implementation_version: '2.4.1 <rc>' } }));
    assert.deepEqual(suites.map((s) => s['@name']).sort(), ['errors', 'resources']);
    const all = suites.flatMap(cases);
    assert.equal(all.length, summary.scenarios.length);
    for (const s of suites) assertCounts(s, cases(s));
    assertCounts(root, all);
    // The fixture has at least one of each, so the counts above are not all zero.
    assert.deepEqual([count(all, 'failure'), count(all, 'error'), count(all, 'skipped')], [2, 1, 2]);
    for (const s of suites) assert.ok(props(s).some((p) => p.name === 'implementation_version' && p.value === '2.4.1 <rc>'));
  });

  it('failed -> <failure>, errored -> <error>, skipped and not-applicable -> <skipped> with the reason; classname, name, file, clauses', () => {
    const summary = fixtureSummary();
    const byName = new Map(parse(junitXml(summary)).suites.flatMap(cases).map((c) => [String(c['@name']), c]));
    for (const s of summary.scenarios) {
      const c = byName.get(s.id);
      assert.ok(c, `no testcase ${s.id}`);
      assert.equal(c['@classname'], s.family);
      assert.equal(c['@file'], s.file);
      assert.match(String(c['@file']), /^specs\/(errors|resources)\/.+\.yaml$/);
      assert.deepEqual(props(c).filter((p) => p.name === 'clause').map((p) => p.value), s.clauses);
      assert.equal(props(c).find((p) => p.name === 'verdict')?.value, s.verdict);
    }
    const child = (id: string, name: string): Node => ((byName.get(id)![name] as Node[] | undefined) ?? [])[0]!;
    const failure = child('demo.wrong-status', 'failure');
    assert.equal(failure['@type'], 'FTF_E_CHECK_FAILED');
    assert.match(String(failure['#text']), /FTF_E_CHECK_FAILED \(non-conformance\)[\s\S]*breaks RES-HEALTH/);
    assert.equal(child('demo.timeout', 'error')['@type'], 'FTF_E_TARGET_TIMEOUT');
    assert.equal(child('demo.production-only', 'skipped')['@message'], 'needs production: the target profile does not declare it');
    assert.equal(child('demo.na', 'skipped')['@message'], 'not applicable: the target has no webhooks');
    // should-only failure under --fail-on must: a pass with the warning in system-out; waived: a pass naming the waiver.
    assert.equal(byName.get('demo.should-only')!.failure, undefined);
    assert.match(String(child('demo.should-only', 'system-out')), /\[status\]/);
    assert.match(String(child('demo.waived', 'system-out')), /waived by clause:RES-HEALTH/);
    assert.equal(props(byName.get('demo.waived')!).find((p) => p.name === 'waived_by')?.value, 'clause:RES-HEALTH (ops, until 2099-01-01): known');
  });

  it('text a target controls keeps its characters (escaped) and loses only what XML cannot carry', () => {
    const c = parse(junitXml(fixtureSummary())).suites.flatMap(cases).find((x) => x['@name'] === 'demo.hostile')!;
    const failure = (c.failure as Node[])[0]!;
    assert.equal(failure['@message'], `body <x a="1"> & ]]> 'q'  end`);
    assert.match(String(failure['#text']), /<b>&amp;<\/b> \]\]> done/);
  });

  it('--fail-on should turns a warning into a failure (it fails the run), in the kind and the counts', () => {
    const summary = fixtureSummary('should');
    const warning = summary.scenarios.find((s) => s.verdict === 'warning')!;
    assert.equal(junitKind(warning, 'should'), 'failure');
    assert.equal(junitKind(warning, 'must'), 'passed');
    const { root, suites } = parse(junitXml(summary));
    assertCounts(root, suites.flatMap(cases));
    assert.equal(Number(root['@failures']), 3);
  });

  it('a run with no scenario is an empty, valid <testsuites>', () => {
    const { root, suites } = parse(junitXml(summarize([], catalogue)));
    assert.equal(suites.length, 0);
    assertCounts(root, []);
  });
});
