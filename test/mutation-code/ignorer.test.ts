/**
 * The Stryker ignorer `ftf-switches` (scripts/stryker-ignorer.mjs) through Stryker's own instrumenter: mutants of
 * fault and variant switches, and of code only they let run, are ignored with a reason; everything beside them is
 * still mutated.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { quietInstrumenter } from './instrumenter.js';
import type { Mutant } from '@stryker-mutator/api/core';
import { PluginKind } from '@stryker-mutator/api/plugin';
// @ts-expect-error plain JavaScript plugin (Stryker's main process loads it without tsx); no declarations
import { SwitchIgnorer, strykerPlugins } from '../../scripts/stryker-ignorer.mjs';
// @ts-expect-error the Stryker config is plain JavaScript; no declarations
import strykerConfig from '../../stryker.config.mjs';

async function mutantsOf(source: string): Promise<readonly Mutant[]> {
  const instrumenter = quietInstrumenter();
  const ignorer = new SwitchIgnorer();
  const { mutants } = await instrumenter.instrument([{ name: 'sut.ts', content: source, mutate: true }], { plugins: null, excludedMutations: [], ignorers: [ignorer] });
  return mutants;
}

/** The source text each mutant replaces, with its status: 'ignored' or 'tested'. */
function byText(source: string, mutants: readonly Mutant[]): Map<string, string[]> {
  const lines = source.split('\n');
  const text = (m: Mutant): string => {
    const { start, end } = m.location;
    if (start.line !== end.line) return `${m.mutatorName}@${start.line + 1}`;
    return lines[start.line]!.slice(start.column, end.column);
  };
  const out = new Map<string, string[]>();
  for (const m of mutants) {
    const key = text(m);
    out.set(key, [...(out.get(key) ?? []), m.status === 'Ignored' ? 'ignored' : 'tested']);
  }
  return out;
}

describe('Stryker ignorer ftf-switches', () => {
  it('is declared as the Ignore plugin that stryker.config.mjs names, from a file the config loads', () => {
    const [plugin] = strykerPlugins as { kind: string; name: string }[];
    assert.deepEqual([plugin?.kind, plugin?.name], [PluginKind.Ignore, 'ftf-switches']);
    const config = strykerConfig as { ignorers?: string[]; plugins?: string[] };
    assert.deepEqual(config.ignorers, ['ftf-switches']);
    assert.ok(config.plugins?.includes('./scripts/stryker-ignorer.mjs'));
  });

  it('ignores a fault switch and the branch only it lets run, with a reason; the rest of the condition stays mutated', async () => {
    const source = [
      'export function f(ctx: any, a: number, max: number) {',
      "  if (a > max && !ctx.faults.on('max-off')) throw new Error('too big');",
      "  if (ctx.faults.on('sign')) return -a;",
      "  return a;",
      '}',
    ].join('\n');
    const mutants = await mutantsOf(source);
    const seen = byText(source, mutants);
    for (const text of ["'max-off'", "ctx.faults.on('sign')", "'sign'", '-a']) assert.deepEqual(new Set(seen.get(text)), new Set(['ignored']), text);
    // Beside the switch: the comparison, the whole condition, the `!` (removing it switches the fault on), the throw.
    for (const text of ['a > max', "a > max && !ctx.faults.on('max-off')", "!ctx.faults.on('max-off')", "'too big'"]) assert.deepEqual(new Set(seen.get(text)), new Set(['tested']), text);
    const reasons = mutants.filter((m) => m.status === 'Ignored').map((m) => m.statusReason ?? '');
    assert.ok(reasons.every((r) => /fault/.test(r) && r.length > 40), `every ignored mutant carries its reason: ${reasons.join(' | ')}`);
  });

  it('ignores no variant: its switch and its branch are tested (a variant is a correct server, judged like the rest)', async () => {
    const source = [
      'export function g(variants: any, x: string, on: boolean) {',
      "  const id = variants.is('opaque-ids') ? 'id_' + x : x;",
      "  const y = on ? x + '!' : x;",
      "  return [id, y];",
      '}',
    ].join('\n');
    const seen = byText(source, await mutantsOf(source));
    for (const text of ["'opaque-ids'", "'id_'", "'!'"]) assert.deepEqual(new Set(seen.get(text)), new Set(['tested']), text);
  });

  it('leaves the other side of an && with a switch mutated when evaluating it has effects', async () => {
    const source = [
      'export function h(faults: any, check: () => boolean, a: number) {',
      "  if (check() && faults.on('x')) return 1;",
      "  const seen = a > 1 && faults.on('y');",
      '  return seen;',
      '}',
    ].join('\n');
    const seen = byText(source, await mutantsOf(source));
    // The test with a call is still mutated as a whole (its call runs with the fault off); the switch is not.
    assert.deepEqual(new Set(seen.get("check() && faults.on('x')")), new Set(['tested']));
    assert.deepEqual(new Set(seen.get("'x'")), new Set(['ignored']));
    // `a > 1` is pure: with the switch off the && is false whatever it is. The whole && is a value: still mutated.
    assert.deepEqual(new Set(seen.get('a > 1')), new Set(['ignored']));
    assert.deepEqual(new Set(seen.get("a > 1 && faults.on('y')")), new Set(['tested']));
  });
});
