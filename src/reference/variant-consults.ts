/**
 * Which variant choices a piece of work asked about (issue 25: the targeted variant matrix, docs/variants.md
 * "Why a targeted variant run proves as much as a full one").
 *
 * A variant changes the reference only where code asks the switchboard (`variants.is(name)`,
 * `variants.choice(point)`, variants.ts). Recording those questions on the CLEAN reference shows, per test,
 * which variants could have answered differently: a test that never made the server ask about a variant
 * gets byte-for-byte the answers it got from the clean server, so the variant cannot make it fail.
 *
 * Keys: `<variant name>` for `is(name)`, `point:<point>` for `choice(point)` (every variant of that point).
 * A question asked while a request is handled (AsyncLocalStorage entered in the app's first onRequest hook)
 * goes to the open window (one test, specs/fixtures.ts); any other question (building the app, registering
 * routes, timers not started by a request, a request while no window is open) goes to `outside`: such a
 * variant shapes everything after it, so the matrix runs it on the whole suite.
 *
 * Off unless enabled (the variant matrix's clean project): then the switchboard is wrapped, nothing else.
 * The state lives on globalThis, so a second copy of this module (src vs dist) shares it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Variants } from './context.js';

interface ConsultState {
  enabled: boolean;
  /** Questions of a route decision being made (decideForRoutes), or null. */
  deciding: Set<string> | null;
  window: Set<string> | null;
  outside: Set<string>;
  inRequest: AsyncLocalStorage<true>;
}

const KEY = Symbol.for('ftf.reference.variantConsults');

function state(): ConsultState {
  const g = globalThis as unknown as Record<symbol, ConsultState | undefined>;
  g[KEY] ??= { enabled: false, deciding: null, window: null, outside: new Set(), inRequest: new AsyncLocalStorage<true>() };
  return g[KEY];
}

/** The test annotation carrying a test's recorded questions (JSON `{inWindow, outside}`; selftest/pw-report.ts). */
export const VARIANT_CONSULTS_ANNOTATION = 'ftf-variant-consults';

/** The key a question about variant `name` is recorded under (`is`), and that of a point (`choice`). */
export const consultKey = (name: string): string => name;
export const pointKey = (point: string): string => `point:${point}`;

/** Turns recording on for every app built from now on in this process (the worker of the clean project). */
export function enableVariantConsults(): void {
  state().enabled = true;
}

export function variantConsultsEnabled(): boolean {
  return state().enabled;
}

function record(key: string): void {
  const s = state();
  if (s.deciding !== null) s.deciding.add(key);
  else if (s.inRequest.getStore() === true && s.window !== null) s.window.add(key);
  else s.outside.add(key);
}

/** The switchboard as is, or (recording on) one that notes every question before answering it. */
export function recordingVariants(v: Variants): Variants {
  if (!state().enabled) return v;
  return Object.freeze({
    active: v.active,
    is: (name: string) => {
      record(consultKey(name));
      return v.is(name);
    },
    choice: (point: string) => {
      record(pointKey(point));
      return v.choice(point);
    },
  });
}

/** Runs `next` (the rest of a request's handling) as request work: its questions go to the open window. */
export function asRequestWork(next: () => void): void {
  const s = state();
  if (!s.enabled) {
    next();
    return;
  }
  s.inRequest.run(true, next);
}

/**
 * A decision made once, while routes are registered (a schema, a parameter name, a form-body scope), whose
 * answer is used by the routes given `hook` and by nothing else: its questions are not `outside` but
 * asked again by every request to those routes (the hook, a route-level onRequest). The caller's promise,
 * checked by review and by test/selftest/variant-targets.test.ts: `value` reaches no other route.
 */
export function decideForRoutes<T>(decide: () => T): { value: T; hook: (request: unknown, reply: unknown, done: () => void) => void } {
  const s = state();
  if (!s.enabled) return { value: decide(), hook: (_request, _reply, done) => done() };
  const outer = s.deciding;
  const asked = new Set<string>();
  s.deciding = asked;
  let value: T;
  try {
    value = decide();
  } finally {
    s.deciding = outer;
  }
  if (outer !== null) for (const k of asked) outer.add(k);
  const keys = [...asked];
  return {
    value,
    hook: (_request, _reply, done) => {
      for (const k of keys) record(k);
      done();
    },
  };
}

/** Opens a window (one test): questions asked while handling requests go to it until it is closed. */
export function openConsultWindow(): void {
  state().window = new Set();
}

/** Closes the window: the questions asked in it, and every question asked outside any window so far. */
export function closeConsultWindow(): { inWindow: string[]; outside: string[] } {
  const s = state();
  const inWindow = [...(s.window ?? [])].sort();
  s.window = null;
  return { inWindow, outside: [...s.outside].sort() };
}

/** For self-tests: back to off and empty. */
export function resetVariantConsults(): void {
  const s = state();
  s.enabled = false;
  s.deciding = null;
  s.window = null;
  s.outside = new Set();
}
