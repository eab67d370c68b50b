// The StrykerJS ignorer plugin `ftf-switches` (stryker.config.mjs `ignorers`; issue 26, docs/mutation-code.md
// "Ignored by rule"): mutants of the reference's fault and variant switches are not tested, each with its reason in
// the report. The reference under test runs with no fault injected and no variant chosen, so
// - a switch itself (`faults.on('x')`, `variants.is('v')`, `variants.choice('c')`, whatever object holds them): a
//   mutant there either switches the fault or variant off (no change: it is already off) or on (the fault or variant
//   itself, which the fault matrix kills and the variant matrix passes: docs/mutation.md, docs/variants-matrix.md);
// - code that runs only while a switch is on (an `if`'s or a `? :`'s branch whose test requires the switch), or whose
//   value is seen only then (the other side of an `&&` with the switch): no test of this run observes it; what it
//   does is judged by the two matrices.
// Everything beside a switch stays mutated: in `if (spec.enforceMaximum && !faults.on('x'))` only the call is
// ignored, `spec.enforceMaximum` and the `&&` are mutated as before.
// Plain JavaScript: Stryker's main process (which instruments) loads it without tsx. The sampler
// (scripts/mutation-code.mjs) lists mutants with the same rules.
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const SWITCHES = { faults: new Set(['on']), variants: new Set(['is', 'choice']) };

/** The name an expression ends in: `faults` for `faults`, `this.faults`, `ctx.faults`, `domain.faults`. */
function tailName(node) {
  if (node?.type === 'Identifier') return node.name;
  if (node?.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return node.property.name;
  return undefined;
}

/** `faults.on(...)` or `variants.is(...)` / `variants.choice(...)`: 'fault' or 'variant', else undefined. */
export function switchKind(node) {
  if (node?.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || node.callee.computed) return undefined;
  const owner = tailName(node.callee.object);
  const method = node.callee.property.type === 'Identifier' ? node.callee.property.name : undefined;
  if (owner === undefined || method === undefined || !SWITCHES[owner]?.has(method)) return undefined;
  return owner === 'faults' ? 'fault' : 'variant';
}

/** A test true only while a switch is on: the switch, or an `&&` one side of which is such a test. */
function requiresSwitch(node) {
  if (node?.type === 'ParenthesizedExpression') return requiresSwitch(node.expression);
  if (switchKind(node) === 'fault' || (switchKind(node) === 'variant' && node.callee.property.name === 'is')) return switchKind(node);
  if (node?.type === 'LogicalExpression' && node.operator === '&&') return requiresSwitch(node.left) ?? requiresSwitch(node.right);
  return undefined;
}

const EFFECTS = new Set(['CallExpression', 'NewExpression', 'AssignmentExpression', 'UpdateExpression', 'AwaitExpression', 'YieldExpression', 'TaggedTemplateExpression']);

/** No call (but a switch's), assignment or await anywhere inside: evaluating it changes nothing, only its value is used. */
function sideEffectFree(node) {
  if (node === null || typeof node !== 'object') return true;
  if (Array.isArray(node)) return node.every(sideEffectFree);
  if (switchKind(node)) return true;
  if (typeof node.type === 'string' && EFFECTS.has(node.type)) return false;
  return Object.entries(node).every(([key, value]) => key === 'loc' || key === 'extra' || key.endsWith('Comments') || sideEffectFree(value));
}

const WHY = {
  fault: 'a fault switch: the reference under test runs with no fault on; switching it on is the fault itself, which the fault matrix kills (docs/mutation.md)',
  variant: 'a variant switch: the reference under test runs with no variant chosen; choosing one is a variant, which the variant matrix passes (docs/variants-matrix.md)',
  faultCode: 'runs only while a fault is on: unreached with no fault injected; what it does is the fault matrix\'s (docs/mutation.md)',
  variantCode: 'runs only while a variant is chosen: unreached in the default reference; what it does is the variant matrix\'s (docs/variants-matrix.md)',
};

/** The reason to ignore the node at `path` (a babel NodePath), or undefined. */
export function switchIgnoreReason(path) {
  const kind = switchKind(path.node);
  if (kind) return WHY[kind];
  const parent = path.parentPath?.node;
  // The whole test of a branch that runs only while a switch is on (`if (faults.on('x') && a)`), if evaluating it
  // has no effect: made false, nothing changes; made true, the branch runs as under the fault or variant (the same as
  // switching it on, above).
  if ((parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') && path.key === 'test' && sideEffectFree(path.node)) {
    const testGate = requiresSwitch(path.node);
    if (testGate) return WHY[testGate];
  }
  let gated;
  if ((parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') && path.key === 'consequent') gated = requiresSwitch(parent.test);
  else if ((parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') && path.key === 'alternate' && parent.test.type === 'UnaryExpression' && parent.test.operator === '!') gated = requiresSwitch(parent.test.argument);
  // `S && A` or `A && S`: with S off the whole is false whatever A is (A's own value is never seen).
  else if (parent?.type === 'LogicalExpression' && parent.operator === '&&' && path.key === 'right') gated = requiresSwitch(parent.left);
  else if (parent?.type === 'LogicalExpression' && parent.operator === '&&' && path.key === 'left' && sideEffectFree(path.node)) gated = requiresSwitch(parent.right);
  if (gated === 'fault') return WHY.faultCode;
  if (gated === 'variant') return WHY.variantCode;
  return undefined;
}

export class SwitchIgnorer {
  shouldIgnore(path) {
    return switchIgnoreReason(path);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Ignore, 'ftf-switches', SwitchIgnorer)];
