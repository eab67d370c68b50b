/**
 * Issue 13: `clockless_form` links a clock scenario to the scenario that runs in its place on a target without
 * clock control. The loader checks the link (the form exists, covers the same clauses, needs no clock, has no
 * form itself, serves one scenario) and marks the form `formOf`; a bad link makes the naming scenario a problem.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { TEST_CLAUSES } from './engine-helpers.js';

const scenario = (id: string, extra = '', covers = '[T-ONE]') => `id: ${id}
title: ${id}
covers: ${covers}
${extra}
steps:
  - set: { x: 1 }
`;

function load(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'ftf-forms-'));
  try {
    mkdirSync(join(dir, 'fam'));
    mkdirSync(join(dir, '_steps'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'fam', `${name}.yaml`), text);
    return loadScenarioSuite(dir, { clauses: TEST_CLAUSES });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const messages = (s: ReturnType<typeof load>) => s.problems.flatMap((p) => p.errors.map((e) => e.message)).join('\n');

describe('clockless_form', () => {
  it('links a clock scenario to its form; the form is marked formOf', () => {
    const s = load({ a: scenario('f.a', 'needs: [clock]\nclockless_form: f.b'), b: scenario('f.b') });
    assert.equal(s.problems.length, 0, messages(s));
    assert.equal(s.scenarios.find((x) => x.id === 'f.a')?.clocklessForm, 'f.b');
    assert.equal(s.scenarios.find((x) => x.id === 'f.b')?.formOf, 'f.a');
  });

  it('refuses a missing form, a form needing the clock, other clauses, a form with a form, a shared form', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ a: scenario('f.a', 'needs: [clock]\nclockless_form: f.nope') }, /no scenario has the id 'f.nope'/],
      [{ a: scenario('f.a', 'needs: [clock]\nclockless_form: f.b'), b: scenario('f.b', 'needs: [clock]') }, /'f.b' needs clock/],
      [{ a: scenario('f.a', 'needs: [clock]\nclockless_form: f.b', '[T-CLOCK]'), b: scenario('f.b') }, /not the same clauses/],
      [{ a: scenario('f.a', 'needs: [clock]\nclockless_form: f.b'), b: scenario('f.b', 'clockless_form: f.c'), c: scenario('f.c') }, /'f.b' has a clock-less form itself/],
      [{ a: scenario('f.a', 'needs: [clock]\nclockless_form: f.c'), b: scenario('f.b', 'needs: [clock]\nclockless_form: f.c'), c: scenario('f.c') }, /already the form of 'f.a'/],
    ];
    for (const [files, expected] of cases) {
      const s = load(files);
      assert.match(messages(s), expected);
      assert.equal(s.problems[0]?.errors[0]?.code, 'FTF_E_SCENARIO_INVALID');
    }
  });

  it('a form does not inherit clock from its clauses, but may not declare it nor move the clock', () => {
    // T-CLOCK needs clock in the test catalogue: the clock form checks it in full, the form from what it can see.
    const s = load({ a: scenario('f.a', 'needs: [clock]\nclockless_form: f.b', '[T-ONE, T-CLOCK]'), b: scenario('f.b', 'needs: [mutation]', '[T-ONE, T-CLOCK]') });
    assert.equal(s.problems.length, 0, messages(s));
    assert.deepEqual(s.scenarios.find((x) => x.id === 'f.a')?.needs.includes('clock'), true);
    assert.deepEqual(s.scenarios.find((x) => x.id === 'f.b')?.needs, ['mutation']);
    const stepping = load({
      a: scenario('f.a', 'needs: [clock]\nclockless_form: f.b', '[T-ONE, T-CLOCK]'),
      b: `id: f.b\ntitle: f.b\ncovers: [T-ONE, T-CLOCK]\nsteps:\n  - clock: { days: 1 }\n`,
    });
    assert.match(messages(stepping), /'f.b' needs clock itself \(declared or by a clock step\)/);
  });

  it('no_clockless_form carries the reason; it cannot be given together with a form', () => {
    const ok = load({ a: scenario('f.a', 'needs: [clock]\nno_clockless_form: a day must pass') });
    assert.equal(ok.scenarios[0]?.noClocklessForm, 'a day must pass');
    const both = load({ a: scenario('f.a', 'needs: [clock]\nno_clockless_form: x\nclockless_form: f.b'), b: scenario('f.b') });
    assert.equal(both.scenarios.some((x) => x.id === 'f.a'), false);
    assert.equal(both.problems[0]?.errors[0]?.code, 'FTF_E_SCENARIO_INVALID');
  });

  it('the catalogue: every form covers its scenario\'s clauses and needs no clock', () => {
    const s = loadScenarioSuite('specs');
    assert.equal(s.problems.length, 0, messages(s));
    const forms = s.scenarios.filter((x) => x.formOf !== undefined).map((x) => `${x.formOf} -> ${x.id}`).sort();
    assert.deepEqual(forms, [
      'amounts.indication-uid-expired -> amounts.indication-uid-rotated', 'amounts.subscription-date-cutoff-passed -> amounts.subscription-date-past',
      'events.kinds -> events.kinds-observed', 'events.scope-appended -> events.scope-traffic', 'events.scope-readonly -> events.scope-readonly-history',
      'lifecycle.cutoff-instant -> lifecycle.cutoff-instant-observed', 'lifecycle.issue-after-cutoff -> lifecycle.issue-after-cutoff-observed',
      'paging.fence-append -> paging.fence-traffic', 'token.expiry -> token.expiry-realtime',
    ]);
    // Every other scenario needing the clock says why it has no form.
    const bare = s.scenarios.filter((x) => x.needs.includes('clock') && x.clocklessForm === undefined && x.noClocklessForm === undefined).map((x) => x.id);
    assert.deepEqual(bare, []);
  });
});
