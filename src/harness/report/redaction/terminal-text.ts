/**
 * Text from a target (response bodies, headers, error excerpts) made safe for a terminal: every control
 * character but newline and tab (C0 including ESC, BEL, NUL and CR; DEL; C1 including CSI and OSC) is shown
 * as a visible escape (`\x1b`, `\x07`, `\x00`, `\u009b`), so no escape sequence (cursor moves, a window
 * title, an OSC 8 hyperlink) reaches the terminal raw, and the reader still sees what the target sent. Colour
 * (SGR) sequences are dropped instead.
 *
 * Applied where text reaches a terminal, the same function in each process:
 * - the CLI's own stdout and stderr (guardTerminalStreams, installed by bin/ftf-conformance.mjs: the CLI writes no
 *   control character of its own);
 * - the Playwright runner's reporters (the redacting reporter makes every printed payload safe: test and step
 *   errors, step titles, stdout/stderr chunks, annotations), whose own colours are added after, by them.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Colour and style (SGR) sequences: dropped, not shown (Playwright dims its call logs with them; a target's colours are no loss). */
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]{0,32}m/g;

export function terminalSafe(text: string): string {
  return CONTROL.test(text) ? text.replace(SGR, '').replace(CONTROLS, escape) : text;
}

function escape(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

type Write = NodeJS.WriteStream['write'];
const GUARDED = Symbol('ftf.terminalSafe');
/** Set while Playwright's runner prints from this process (passThroughTerminal). */
let passing = false;

/**
 * The guarded streams pass text through untouched while `run` runs: Playwright's runner in the CLI's process
 * (cli/in-process-runner.ts), whose reporters make what they print safe themselves (the redacting reporter) and
 * then add their own colours and cursor moves.
 */
export async function passThroughTerminal<T>(run: () => Promise<T>): Promise<T> {
  passing = true;
  try {
    return await run();
  } finally {
    passing = false;
  }
}

/** Makes every later write to these streams terminal-safe (idempotent). */
export function guardTerminalStreams(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    const s = stream as NodeJS.WriteStream & { [GUARDED]?: boolean };
    if (s[GUARDED]) continue;
    const original = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    const guarded = (chunk: unknown, ...rest: unknown[]): boolean => {
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : chunk;
      return original(typeof text === 'string' && !passing ? terminalSafe(text) : text, ...rest);
    };
    stream.write = guarded as Write;
    Object.defineProperty(s, GUARDED, { value: true });
  }
}
