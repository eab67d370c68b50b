import { spawnSync } from 'node:child_process';
import type { Command } from './types.js';

/** Runs the conformance suite (Playwright underneath) against the target of FTF_TARGET or --target. */
export const runCommand: Command = {
  summary: 'run the conformance suite against a target (default: the embedded reference server)',
  async run(args) {
    const env = { ...process.env };
    const pass: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--target') {
        const file = args[++i];
        if (!file) {
          console.error('ftf-conformance run: --target needs a profile file');
          return 2;
        }
        env.FTF_TARGET = file;
      } else {
        pass.push(a);
      }
    }
    const r = spawnSync('npx', ['playwright', 'test', ...pass], { stdio: 'inherit', env });
    return r.status === 0 ? 0 : r.status === null ? 3 : 1;
  },
};
