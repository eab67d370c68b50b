/**
 * THE wiring of the engine: what stands between a raw transport and a scenario or property. One redactor learns
 * every secret of the test; the production write guard (when asked) refuses writes before they are sent; the
 * recording transport (the ONE redaction point for exchanges, http/recorder.ts) times, redacts and hands each
 * exchange to the sinks; the auth client caches the test's tokens through it. The Playwright runner
 * (specs/fixtures.ts `engine`), the property tests (specs/properties/fixtures.ts `paging`, `model`), the engine
 * outside Playwright (in-process.ts: `ftf-conformance dev` and the self-tests' in-process sweep) and the engine
 * benchmark (bench/lib/traverse-child.ts) all wire through here; each passes only where its exchanges go and how
 * its steps run.
 */
import { createAuthClient } from '../auth/client.js';
import type { AuthClient } from '../auth/types.js';
import { RecordingTransport } from '../http/recorder.js';
import { Redactor } from '../http/redactor.js';
import type { ExchangeSink, Transport } from '../http/types.js';
import type { SchemaRegistry } from '../schemas/types.js';
import { guardProductionWrites } from '../target/guard.js';
import type { ResolvedTarget } from '../target/types.js';
import type { EngineContext } from './types.js';

export interface EngineWiringOptions {
  target: ResolvedTarget;
  schemas: SchemaRegistry;
  /** The raw transport (undici or Playwright's request), not recorded. */
  wire: Transport;
  /** Where every recorded (redacted) exchange goes: attachments, HAR, a property's run log, a counter. */
  sinks?: ExchangeSink[];
  /**
   * The production write guard (target/guard.ts) with the command line's opt-in: inside the recorder, so a refused
   * write is still recorded. Absent: no guard (a read-only use).
   */
  writeGuard?: { allowMutations: boolean };
  /** Told every secret spelling the redactor learns (the reporters get them as digests: report/redaction/secret-digests.ts). */
  onSpellings?: (spellings: string[]) => void;
  /** A further pass over redacted text (structural redaction of the report boundary), applied after the redactor's. */
  redactAfter?: (text: string) => string;
}

/** The wired parts, and the EngineContext made of them. */
export interface WiredEngine {
  redactor: Redactor;
  transport: RecordingTransport;
  auth: AuthClient;
  /** The redactor's text redaction (then `redactAfter`): what failure messages and counterexamples pass through. */
  redact: (text: string) => string;
  /** The engine's context: the wired parts plus how this caller runs steps and what it does with checks. */
  context(run: EngineRun): EngineContext;
}

/** What differs per caller: the run id, the step runner and the optional hooks of EngineContext. */
export type EngineRun = Omit<EngineContext, 'target' | 'transport' | 'auth' | 'schemas' | 'redact'>;

export function wireEngine(options: EngineWiringOptions): WiredEngine {
  const { target, schemas } = options;
  const redactor = new Redactor();
  if (options.onSpellings) redactor.onSpellings(options.onSpellings);
  const after = options.redactAfter;
  const redact = after ? (text: string): string => after(redactor.redactText(text)) : (text: string): string => redactor.redactText(text);
  const wire = options.writeGuard ? guardProductionWrites(options.wire, target, options.writeGuard.allowMutations) : options.wire;
  const transport = new RecordingTransport(wire, redactor, options.sinks ?? []);
  const auth = createAuthClient(target, transport, redactor);
  return {
    redactor,
    transport,
    auth,
    redact,
    context: (run) => ({ target, transport, auth, schemas, redact, ...run }),
  };
}
