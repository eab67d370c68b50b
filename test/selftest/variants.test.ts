/**
 * The variant matrix's pure parts: the profile generated for each variant (documented options only, and the
 * resolved target shows the registry's settings), verdicts (0 failed, 0 errored, no more skips than clean),
 * flags, and the CI subset.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createVariants, PERSONAS, profileFor, VARIANTS } from '../../src/reference/variants.js';
import { encodeOutcome, readOutcome, type OutcomeStatus } from '../../src/harness/report/records/outcome.js';
import { resolveTarget } from '../../src/harness/target/resolve.js';
import { parseVariantArgs, VariantUsageError, wantsVariants } from '../../src/selftest/variant-cli.js';
import { renderVariantMarkdown, selectVariantRuns, VARIANT_CI_SUBSET, variantResult } from '../../src/selftest/variant-matrix.js';
import { writeVariantProfile } from '../../src/selftest/variant-profile.js';
import type { TestRecord } from '../../src/selftest/pw-report.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-variant-profiles-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What the resolved target holds for a dotted profile key (paths get path_params filled in). */
function resolvedValue(t: ReturnType<typeof resolveTarget>, key: string): unknown {
  const [section, name, leaf] = key.split('.') as [string, string, string | undefined];
  const camel = (s: string): string => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  switch (section) {
    case 'paging': return (t.paging[name as keyof typeof t.paging] as unknown as Record<string, unknown>)[camel(leaf ?? '')];
    case 'checkpoint': return (t.shapes.checkpoint_put as unknown as Record<string, unknown>)[leaf ?? ''];
    case 'paths': return t.paths[name];
    case 'fields': return t.fields[name];
    case 'records': return t.records[name];
    case 'webhook': return name === 'delete_body' ? t.webhook.deleteBody : (t.shapes[`webhook_${name}` as 'webhook_delete'] as unknown as Record<string, unknown>)[leaf ?? ''];
    default: return undefined;
  }
}

describe('variant profiles', () => {
  for (const name of [...VARIANTS.map((v) => v.name), ...PERSONAS.map((p) => p.name)]) {
    it(`${name}: the generated profile validates and the resolved target carries every registry setting`, () => {
      const profile = writeVariantProfile(dir, name, [name]);
      const target = resolveTarget(profile, { partial: true });
      const settings = profileFor(createVariants([name]));
      const params = Object.fromEntries(Object.entries(settings).filter(([k]) => k.startsWith('path_params.')).map(([k, v]) => [k.slice('path_params.'.length), String(v)]));
      for (const [key, value] of Object.entries(settings)) {
        if (key.startsWith('path_params.')) continue;
        const expected = typeof value === 'string' && key.startsWith('paths.')
          ? value.replace(/\{([^{}/]+)\}/g, (whole, p: string) => params[p] ?? whole)
          : value;
        assert.deepEqual(resolvedValue(target, key), expected, `${key} of ${name}`);
      }
    });
  }
});

/** A test record as the outcome reader gives it (the conformance entry's annotation, or Playwright's skip). */
const record = (scenario: string, status: OutcomeStatus): TestRecord => ({
  project: 'p', title: scenario, scenario, clauses: [],
  outcome: status === 'skipped'
    ? readOutcome({ annotations: [{ type: 'skip', description: 'needs clock' }], lastStatus: 'skipped' })
    : readOutcome({ annotations: [encodeOutcome({ status, clauses: [], checks: [], exchanges: [], warnings: [] })], lastStatus: status === 'passed' ? 'passed' : 'failed' }),
});

describe('variant verdicts', () => {
  const clean = [record('a', 'passed'), record('b', 'passed'), record('c', 'skipped')];
  it('passes with no failure, no error and the clean run\'s skips', () => {
    const r = variantResult('v', ['v'], [record('a', 'passed'), record('b', 'passed'), record('c', 'skipped')], clean);
    assert.equal(r.ok, true);
    assert.deepEqual([r.passed, r.skipped, r.extraSkips], [2, 1, []]);
  });
  it('fails on a failed scenario', () => {
    const r = variantResult('v', ['v'], [record('a', 'failed'), record('b', 'passed'), record('c', 'skipped')], clean);
    assert.equal(r.ok, false);
    assert.deepEqual(r.failingScenarios, ['a']);
  });
  it('fails on more skips than the clean reference, naming them', () => {
    const r = variantResult('v', ['v'], [record('a', 'passed'), record('b', 'skipped'), record('c', 'skipped')], clean);
    assert.equal(r.ok, false);
    assert.deepEqual(r.extraSkips, ['b']);
  });
  it('fails when nothing ran', () => {
    assert.equal(variantResult('v', ['v'], [], clean).ok, false);
    // Nobody reaches it: a failure of a full run (the suite never looks there), no verdict under --grep.
    assert.equal(variantResult('v', ['v'], [], clean, { scope: 'unreached', reason: 'r' }).ok, false);
    assert.equal(variantResult('v', ['v'], [], clean, { scope: 'unselected', reason: 'r' }).ok, true);
  });
});

describe('docs/variants-matrix.md', () => {
  it('states the run: date, harness commit, workers, wall time, load at start, and the count of runs', () => {
    const ok = variantResult('v', ['v'], [record('a', 'passed')], [record('a', 'passed')]);
    const persona = { ...variantResult('all-alternate', ['x', 'y'], [record('a', 'failed')], [record('a', 'passed')]) };
    const page = renderVariantMarkdown({ clean: ok, runs: [ok, persona], wallMs: 61_500, workers: 2, generatedAt: '2026-11-27T19:00:00.000Z', commit: 'abc123', loadAtStart: [9.5, 8.25, 7], cores: 2 });
    assert.match(page, /^2026-11-27T19:00:00\.000Z, harness commit abc123: 2 worker\(s\), wall time 61\.5 s, load average at start 9\.50 \/ 8\.25 \/ 7\.00 \(1\/5\/15 min\) on 2 cores\.$/m);
    assert.match(page, /^2 runs \(1 variants, 1 personas\): 1 pass, 1 fail; 2 variant test\(s\) run \(2 run\(s\) on the whole suite, 0 targeted\)\.$/m);
    assert.match(page, /^\| `all-alternate` \| persona \(2 variants\) \| whole suite \| 0 \| 1 \|/m);
  });
});

describe('variant selection and flags', () => {
  it('the CI subset names known variants and the all-alternate persona', () => {
    assert.deepEqual(selectVariantRuns({ subset: 'ci' }), [...VARIANT_CI_SUBSET]);
    assert.ok(VARIANT_CI_SUBSET.includes('all-alternate'));
    // Issue 25: CI walks paged lists and sends the open request shapes on every run (a paging and a request-shape variant).
    const inCi = new Set(VARIANT_CI_SUBSET.flatMap((n) => PERSONAS.find((p) => p.name === n)?.variants ?? [n]));
    assert.ok(['subscriptions-page-number', 'lists-cursor'].every((n) => inCi.has(n)), 'a paging variant with page-number or cursor layouts');
    assert.ok(inCi.has('webhook-delete-query') && inCi.has('checkpoint-put-json-body') && inCi.has('checkpoint-put-form'), 'the request-shape variants: query, JSON body, form body');
  });
  it('all = every variant and every persona', () => {
    assert.equal(selectVariantRuns({}).length, VARIANTS.length + PERSONAS.length);
  });
  it('refuses unknown names', () => {
    assert.throws(() => selectVariantRuns({ variants: ['no-such-variant'] }), /unknown variant/);
  });
  it('--variants alone, with names, and with other flags', () => {
    assert.equal(wantsVariants(['--variants']), true);
    assert.equal(wantsVariants(['--faults', 'x']), false);
    assert.deepEqual(parseVariantArgs(['--variants']), {});
    assert.deepEqual(parseVariantArgs(['--variants', '--subset', 'ci']), { subset: 'ci' });
    assert.deepEqual(parseVariantArgs(['--variants', 'a,b', '--workers', '2']), { variants: ['a', 'b'], workers: 2 });
    assert.throws(() => parseVariantArgs(['--variants', '--subset', 'x']), VariantUsageError);
  });

  it('--grep: the selection pattern, checked (empty or not a regular expression: a usage error)', () => {
    assert.deepEqual(parseVariantArgs(['--variants', '--grep', '@model', '--workers', '1']), { grep: '@model', workers: 1 });
    assert.deepEqual(parseVariantArgs(['--variants', 'a', '--grep', '^paging\\.']), { variants: ['a'], grep: '^paging\\.' });
    assert.throws(() => parseVariantArgs(['--variants', '--grep', '(']), /--grep must be a regular expression/);
    assert.throws(() => parseVariantArgs(['--variants', '--grep', '']), /--grep must not be empty/);
  });
});
