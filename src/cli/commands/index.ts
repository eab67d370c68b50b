import type { Command } from './types.js';
import { certifyCommand } from './certify.js';
import { coverageCommand } from './coverage.js';
import { doctorCommand } from './doctor.js';
import { initCommand } from './init.js';
import { listCommand } from './list.js';
import { mergeCommand } from './merge.js';
import { referenceCommand } from './reference.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { selftestCommand } from './selftest.js';
import { verifyCommand } from './verify.js';

/** Registry of CLI commands: add a command by adding its file and one line here. */
export const commands: Record<string, Command> = {
  run: runCommand,
  merge: mergeCommand,
  certify: certifyCommand,
  init: initCommand,
  doctor: doctorCommand,
  list: listCommand,
  coverage: coverageCommand,
  report: reportCommand,
  verify: verifyCommand,
  selftest: selftestCommand,
  reference: referenceCommand,
};
