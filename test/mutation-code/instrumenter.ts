/** Stryker's own instrumenter with a silent logger, for tests that instrument a fixture as a Stryker sandbox would. */
import { createInjector } from 'typed-inject';
import { createInstrumenter, type Instrumenter } from '@stryker-mutator/instrumenter';

const quiet = (): boolean => false;
const noop = (): void => undefined;
const logger = { isTraceEnabled: quiet, isDebugEnabled: quiet, isInfoEnabled: quiet, isWarnEnabled: quiet, isErrorEnabled: quiet, isFatalEnabled: quiet, trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop };

export function quietInstrumenter(): Instrumenter {
  return createInstrumenter(createInjector().provideValue('logger', logger).provideValue('getLogger', () => logger));
}
