/**
 * The part of a report file that no run wrote: Playwright's HTML report (playwright-html/index.html) starts with
 * its app, ~0.5 MB that Playwright builds from three files of the installed playwright-core (index.html with
 * report.js and report.css inlined, as its html reporter does), and only then the run's data (a base64 zip). The
 * leak scan searches from just before the end of that app when the file starts with it byte for byte; any other
 * start (another Playwright version, an edited report) is scanned whole. Saves ~50 ms of a one-scenario run's
 * serial tail: the cold scan of the app, 60 ms of the 62 ms the report took (docs/performance.md, issue 28).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

let app: Buffer[] | null | undefined;

/**
 * Playwright's HTML app as its reporter writes it, in pieces (the two assets' bytes as read, never decoded: a
 * 0.5 MB decode and re-encode cost more than the scan it saves), or null when playwright-core's files cannot be read.
 */
function playwrightHtmlApp(): Buffer[] | null {
  if (app !== undefined) return app;
  try {
    const folder = join(dirname(createRequire(import.meta.url).resolve('playwright-core')), 'lib', 'vite', 'htmlReport');
    const html = readFileSync(join(folder, 'index.html'), 'utf8');
    const script = /<script type="module"[^>]*><\/script>/.exec(html);
    const style = /<link rel="stylesheet"[^>]*>/.exec(html);
    if (!script || !style || style.index < script.index + script[0].length) throw new Error('not the layout this mirrors');
    const text = (t: string): Buffer => Buffer.from(t, 'utf8');
    app = [
      text(`${html.slice(0, script.index)}<script type="module">`),
      readFileSync(join(folder, 'report.js')),
      text(`</script>${html.slice(script.index + script[0].length, style.index)}<style type='text/css'>`),
      readFileSync(join(folder, 'report.css')),
      text(`</style>${html.slice(style.index + style[0].length)}`),
    ];
  } catch {
    app = null;
  }
  return app;
}

/** How many leading bytes of `file` (read into `buf`) are Playwright's own app, unchanged: 0 for any other file. */
export function shippedPrefixLength(file: string, buf: Buffer): number {
  if (basename(file) !== 'index.html') return 0;
  let at = 0;
  for (const piece of playwrightHtmlApp() ?? []) {
    if (!buf.subarray(at, at + piece.length).equals(piece)) return 0;
    at += piece.length;
  }
  return at;
}
