/**
 * Thin Playwright entry: every YAML scenario as a test (scenario-tests.ts). Against an external target
 * (FTF_TARGET) its profile's environment is known now, so on a production target the guard's skips are
 * declared; the embedded reference's projects here are sandboxes (production mode: production.spec.ts).
 */
import { profileGuard, resolveTargetFile } from '../src/harness/target/load.js';
import { declareScenarioTests } from './scenario-tests.js';

declareScenarioTests(process.env.FTF_TARGET?.trim() ? profileGuard(resolveTargetFile(process.env)) : undefined);
