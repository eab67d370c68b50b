/**
 * Preloaded with NODE_OPTIONS=--import (Node 20 refuses --cpu-prof there): profiles this process with the
 * inspector and writes <FTF_BENCH_CPU_PROF>/<script>-<pid>.cpuprofile at exit. bench/per-request.ts sets it up.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, join } from 'node:path';

const dir = process.env.FTF_BENCH_CPU_PROF;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  const name = basename(process.argv[1] ?? 'node').replace(/\W+/g, '_');
  let written = false;
  // The inspector answers synchronously in the same thread, so the profile is written before exit.
  process.on('exit', () => {
    if (written) return;
    written = true;
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
