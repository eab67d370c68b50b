/**
 * Over the whole catalogue (issue 25): no scenario reads only the first page of a list a profile may declare
 * paged. A list's items are reached through a `list` step only (it walks every page as paging.<list> says):
 *   1. no expression names a list pointer (`fields.<list>_list`): reading one response's array at it is
 *      exactly a first-page read;
 *   2. a request to a list operation outside a `list` step (`target.paths.<list>`, GET /subscription) may
 *      only be judged by its status, or be an error probe (its expected statuses hold no 2xx, or it reads no
 *      body but `detail`): no `as:` binding of a 2xx answer, no `json`/`where`/`capture` on it, and never in
 *      a poll, repeat or paginate.
 * The dynamic half: the variant matrix runs the catalogue against the reference paging every list
 * (lists-*, subscriptions-*, holdings-*; docs/variants-matrix.md).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import type { LocatedStep, RequestSpec, Step } from '../../src/harness/scenario/types.js';
import { LIST_KEYS } from '../../src/harness/target/paging.js';
import { LIST_KEYS as REFERENCE_LIST_KEYS } from '../../src/reference/variant-registry.js';

const suite = loadScenarioSuite(join(REPO_ROOT, 'specs'));
const LIST_PATH = new RegExp(`target\\.paths\\.(${LIST_KEYS.join('|')})\\b`);
const LIST_POINTER = new RegExp(`fields\\.(${LIST_KEYS.join('|')})_list\\b`);

/** True when `spec` asks for a list: a profile list path, or GET /subscription (the spec's list path). */
function isListRead(spec: RequestSpec | undefined): boolean {
  if (!spec || spec.method !== 'GET') return false;
  return LIST_PATH.test(spec.path) || /^\/subscription(\?|$)/.test(spec.path);
}

interface Finding { where: string; problem: string }

/** Expected statuses that hold no success: the answer is an error body, not a page. */
const errorOnly = (status: unknown): boolean => status !== undefined && [status].flat().every((s) => Number(s) >= 300);
/** Reads a body beyond its error `detail`. */
const readsBody = (v: unknown): boolean => v !== undefined && /\.body(?!\.detail\b)|'\/body(?!\/detail\b)/.test(JSON.stringify(v));

function visit(steps: readonly LocatedStep[], where: string, out: Finding[]): void {
  steps.forEach((located, i) => {
    const step = located.step as Step & Record<string, unknown>;
    const at = `${where} step ${i + 1} (${located.location.file.replace(`${REPO_ROOT}/`, '')}:${located.location.line})`;
    if (located.kind !== 'list' && LIST_POINTER.test(JSON.stringify(step))) {
      out.push({ where: at, problem: 'names a list pointer (fields.<list>_list): use a `list` step and its items' });
    }
    const next = steps[i + 1]?.step as Record<string, unknown> | undefined;
    if ('request' in step && isListRead(step.request as RequestSpec)) {
      const r = step.request as RequestSpec & { as?: string };
      const e = next && 'expect' in next ? next.expect as Record<string, unknown> : undefined;
      if (!errorOnly(e?.status)) {
        if (r.as !== undefined) out.push({ where: at, problem: `binds a list response (as: ${r.as}) outside a \`list\` step` });
        if (e && (e.json !== undefined || readsBody(e.where))) out.push({ where: at, problem: 'judges a list response by its body outside a `list` step' });
        if (next && 'capture' in next) out.push({ where: at, problem: 'captures from a list response outside a `list` step' });
      }
    }
    if ('parallel' in step) {
      const p = step.parallel as { request?: RequestSpec; branches?: RequestSpec[]; as?: string; where?: unknown; expect_count?: unknown; expect_all?: { json?: unknown; status?: unknown } };
      const reads = [p.request, ...(p.branches ?? [])].filter(isListRead);
      if (reads.length > 0 && !errorOnly(p.expect_all?.status) && (readsBody(p.where) || readsBody(p.expect_count) || p.expect_all?.json !== undefined)) {
        out.push({ where: at, problem: 'reads list bodies in a `parallel` step (where/json): use a `list` step with for_each' });
      }
    }
    for (const kind of ['poll', 'repeat', 'paginate'] as const) {
      if (kind in step && isListRead((step[kind] as { request: RequestSpec }).request)) out.push({ where: at, problem: `reads a list in a \`${kind}\` step: use a \`list\` step (with until)` });
    }
    if (located.group) visit(located.group.steps, `${where} > ${located.group.name}`, out);
  });
}

describe('list reads over the catalogue', () => {
  it('the harness and the reference know the same lists', () => {
    assert.deepEqual([...LIST_KEYS], [...REFERENCE_LIST_KEYS]);
  });

  it('loads every scenario (a broken file would hide its list reads)', () => {
    assert.deepEqual(suite.problems.map((p) => p.file), []);
    assert.ok(suite.scenarios.length > 50);
  });

  it('no scenario reads only the first page of a list the profile may declare paged', () => {
    const findings: Finding[] = [];
    for (const s of suite.scenarios) visit(s.steps, s.id, findings);
    assert.deepEqual(findings.map((f) => `${f.where}: ${f.problem}`), []);
  });

  it('every list the catalogue reads is read through a `list` step somewhere (the walk is exercised)', () => {
    const walked = new Set<string>();
    const collect = (steps: readonly LocatedStep[]): void => {
      for (const l of steps) {
        if (l.kind === 'list') walked.add(String((l.step as { list: { of: string } }).list.of));
        if (l.group) collect(l.group.steps);
      }
    };
    for (const s of suite.scenarios) collect(s.steps);
    for (const key of ['subscriptions', 'holdings', 'holding_extensions', 'entity_users']) assert.ok(walked.has(key), `no list step reads ${key}`);
    assert.ok(walked.has('${of}'), 'the resources-list group walks the list it is given');
  });

  it('the check finds a first-page read (it can fail)', () => {
    const bad = loadScenarioSuite(join(REPO_ROOT, 'specs'));
    const s = bad.scenarios.find((x) => x.id === 'permissions.entity-scope-subscriptions')!;
    const forged: LocatedStep = {
      kind: 'request',
      step: { request: { method: 'GET', path: '/subscription', query: { entity_code: 'A' }, as: 'first_page' } },
      location: s.source,
    };
    const pointer: LocatedStep = { kind: 'set', step: { set: { subs: '${pointer(first_page.body, target.fields.subscriptions_list)}' } }, location: s.source };
    const findings: Finding[] = [];
    visit([forged, pointer], 'forged', findings);
    assert.equal(findings.length, 2, JSON.stringify(findings));
    const parallel: LocatedStep = { kind: 'parallel', step: { parallel: { branches: [{ method: 'GET', path: '/subscription' }], where: "len(results[0].body) > 0" } }, location: s.source };
    const found: Finding[] = [];
    visit([parallel], 'forged', found);
    assert.equal(found.length, 1, JSON.stringify(found));
  });
});
