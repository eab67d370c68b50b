/**
 * undici parses HTTP with llhttp compiled to WebAssembly (Node's own fetch too). By default V8 compiles that module
 * twice: a baseline at once, then an optimised one on a background thread, ~200-300 ms of CPU per process that a
 * process's exit waits for (seen in `perf`: the worker's exit took ~140 ms longer than an empty Playwright worker's,
 * spent in v8::internal::wasm::BackgroundCompileJob). The baseline code parses as fast here (bench of 1,000 GETs of
 * 1 KB and 200 KB bodies: within 5 %), so the optimising tier is switched off before the first connection.
 * Saves: a process's first undici request ~250 ms of wall time (node, 3 runs each, 420-466 vs 716-737 ms).
 * Imported by every module that connects with undici or fetch; a flag set twice is harmless.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
