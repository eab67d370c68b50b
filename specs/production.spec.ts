/**
 * Entry of the embedded reference's `production` project only (playwright.config.ts): the same tests as
 * conformance.spec.ts, with the production guard's skips declared from the production-mode profile, so the
 * project's worker runs only what the guard lets through.
 */
import { profileGuard, REFERENCE_PRODUCTION_PROFILE } from '../src/harness/target/load.js';
import { declareScenarioTests } from './scenario-tests.js';

declareScenarioTests(profileGuard(REFERENCE_PRODUCTION_PROFILE));
