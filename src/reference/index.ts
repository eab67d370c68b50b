/** Public API of the reference server. */
export { buildReferenceApp, resolveOptions, DEFAULT_TOKEN_LIFETIME_SECONDS, type ReferenceApp } from './app.js';
export { startReferenceServer, type RunningReference } from './server.js';
export { createFaults, KNOWN_FAULTS, knownFaultNames } from './faults.js';
export {
  apiPaths, createVariants, knownVariantNames, profileFor, LIST_KEYS, NO_VARIANTS, PERSONAS, VARIANTS, variantInfo,
  type ApiPaths, type ListKey, type PersonaInfo, type ProfileValue, type VariantInfo,
} from './variants.js';
export { loadReferenceData, DEFAULT_DATA_DIR } from './data/load.js';
export { API_PREFIX, SANDBOX_PREFIX } from './routes/index.js';
export { BODY_LIMIT_BYTES } from './http/errors.js';
export { MAX_PAGE_SIZE } from './routes/events.js';
export { SIM_START_ISO } from './domain/clock.js';
export type { ReferenceOptions, ReferenceContext, GeneratedSecrets, Principal, Mode, Faults, Variants } from './context.js';
export { ApiError } from './context.js';
export type * from './data/types.js';
export type { GradingChallenges, GradingOptions, RawExchange } from './grading/types.js';
