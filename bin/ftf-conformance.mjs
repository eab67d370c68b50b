#!/usr/bin/env node
// The `ftf-conformance` command. Loads the TypeScript CLI through tsx, so a clone needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
