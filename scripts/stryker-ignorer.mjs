// The StrykerJS ignorer plugin `ftf-switches` (stryker.config.mjs `ignorers`; issue 26, docs/mutation-code.md
// "Ignored by rule"): mutants of the reference's FAULT switches, and of code only a fault lets run, are not tested,
// each with its reason in the report. The reference under test runs with no fault injected, so
// - a fault's switch (`faults.on('x')`, whatever object holds it), or the whole test of a branch that holds only
//   while a fault is on: a mutant there either switches the fault off (no change) or on (the fault itself: a
//   deviation on purpose, which the fault matrix kills, docs/mutation.md);
// - code that runs only while a fault is on (the branch of such an `if` or `? :`), or whose value is seen only then
//   (the other side of an `&&` with the switch, if evaluating it has no effect): it only changes one deviation into
//   another.
// Everything beside a switch stays mutated: in `if (spec.enforceMaximum && !faults.on('x'))` only the call is
// ignored, `spec.enforceMaximum`, the `&&` and the `!` are tested.
// Variants are NOT ignored: a variant is a correct server, and its code must be judged like the rest (a mutant there
// that the suite cannot see is classified in fixtures/mutation-code/, as not judged by a run of the default reference).
// Plain JavaScript: Stryker's main process (which instruments) loads it without tsx. The sampler
// (scripts/mutation-code.mjs) lists mutants with the same rules.
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const SWITCHES = { faults: new Set(['on']), variants: new Set(['is', 'choice']) };
// switchKind knows variants too (sideEffectFree treats their calls as pure reads); only faults are ignored.

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

/** A test true only while a fault is on: the fault's switch, or an `&&` one side of which is such a test. */
function requiresFault(node) {
  if (node?.type === 'ParenthesizedExpression') return requiresFault(node.expression);
  if (switchKind(node) === 'fault') return true;
  if (node?.type === 'LogicalExpression' && node.operator === '&&') return requiresFault(node.left) || requiresFault(node.right);
  return false;
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
  faultCode: 'runs only while a fault is on: unreached with no fault injected; what it does is the fault matrix\'s (docs/mutation.md)',
};

/** The reason to ignore the node at `path` (a babel NodePath), or undefined. */
export function switchIgnoreReason(path) {
  if (switchKind(path.node) === 'fault') return WHY.fault;
  const parent = path.parentPath?.node;
  // The whole test of a branch that runs only while a fault is on (`if (faults.on('x') && a)`), if evaluating it has
  // no effect: made false, nothing changes; made true, the branch runs as under the fault (the fault itself, above).
  if ((parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') && path.key === 'test' && sideEffectFree(path.node) && requiresFault(path.node)) return WHY.fault;
  let gated = false;
  if ((parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') && path.key === 'consequent') gated = requiresFault(parent.test);
  else if ((parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') && path.key === 'alternate' && parent.test.type === 'UnaryExpression' && parent.test.operator === '!') gated = requiresFault(parent.test.argument);
  // `F && A` or `A && F`: with the fault off the whole is false whatever A is (A's own value is never seen).
  else if (parent?.type === 'LogicalExpression' && parent.operator === '&&' && path.key === 'right') gated = requiresFault(parent.left);
  else if (parent?.type === 'LogicalExpression' && parent.operator === '&&' && path.key === 'left' && sideEffectFree(path.node)) gated = requiresFault(parent.right);
  return gated ? WHY.faultCode : undefined;
}

export class SwitchIgnorer {
  shouldIgnore(path) {
    return switchIgnoreReason(path);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Ignore, 'ftf-switches', SwitchIgnorer)];
