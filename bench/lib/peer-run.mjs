// Runs a peer tool's CLI (bench/real-path.ts) in this process with one more argument built from the
// environment, so the client secret reaches the tool neither through a file nor through the command line
// other processes can read:
//   node peer-run.mjs <entry.js> <flag> <name> [args...]
// runs <entry.js> [args...] <flag> <name>=$BENCH_CLIENT_SECRET (Step CI: -s client_secret=…; Newman:
// --env-var client_secret=…) as the main module (Newman's bin runs only then). The tool parses process.argv.
import { Module } from 'node:module';
import { resolve } from 'node:path';

const [entry, flag, name, ...args] = process.argv.slice(2);
const secret = process.env.BENCH_CLIENT_SECRET;
if (!entry || !flag || !name || !secret) throw new Error('usage: BENCH_CLIENT_SECRET=… node peer-run.mjs <entry.js> <flag> <name> [args...]');
delete process.env.BENCH_CLIENT_SECRET;
const main = resolve(entry);
process.argv = [process.argv[0] ?? 'node', main, ...args, flag, `${name}=${secret}`];
Module.runMain(main);
