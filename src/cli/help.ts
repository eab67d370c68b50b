/**
 * Per-command help as data (each Command's `help`), rendered two ways from the same data: the text of
 * `ftf-conformance help <command>` / `<command> --help`, and the generated blocks of docs/cli.md
 * (`npm run docs:cli`; test/cli/help.test.ts fails when they are stale).
 */
import type { Command } from './commands/types.js';
import { ENV_VARS, envVar, type EnvVar } from './env-vars.js';

export interface FlagHelp {
  /** `--target`, `-- ARGS` or a positional such as `FILE`. */
  flag: string;
  /** Value name (`FILE`, `N`, `must|should`); none for a switch. */
  value?: string;
  /** The value may be left out (`--markdown [FILE]`). */
  optionalValue?: boolean;
  text: string;
  default?: string;
  /** Environment variable with the same effect. */
  env?: string;
  /** May be given several times. */
  repeatable?: boolean;
  /** A positional argument (no dashes). */
  positional?: boolean;
}

export interface CommandHelp {
  /** Synopsis lines without the leading `ftf-conformance `; default: derived from the flags. */
  synopsis?: string[];
  /** What the command does, exit codes included: plain sentences. */
  description: string;
  flags: FlagHelp[];
  /** FTF_* variables the command reads (names of env-vars.ts). */
  env: string[];
  examples: { command: string; text: string }[];
  /**
   * The examples run as written (with the placeholders test/docs/runnable-examples.test.ts substitutes): docs/cli.md
   * marks their block `<!-- runnable -->` and that test pastes every line of it into a shell.
   */
  runnableExamples?: true;
}

/** An example as typed at a shell: `npx` after any leading `VAR=value` assignments. */
export const npxLine = (command: string): string => command.replace(/^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)/, '$1npx ');

const WIDTH = 100;

function flagSynopsis(f: FlagHelp): string {
  if (f.positional) return f.flag;
  const value = f.value ? (f.optionalValue ? ` [${f.value}]` : ` ${f.value}`) : '';
  if (f.flag === '--') return `[-- ${f.value ?? 'ARGS'}]`;
  return `[${f.flag}${value}]${f.repeatable ? '...' : ''}`;
}

/** The synopsis lines (`ftf-conformance <name> …`), wrapped at 100 columns. */
export function synopsis(name: string, help: CommandHelp): string[] {
  if (help.synopsis) return help.synopsis.map((s) => `ftf-conformance ${s}`);
  const head = `ftf-conformance ${name}`;
  const lines: string[] = [];
  let line = head;
  for (const part of help.flags.map(flagSynopsis)) {
    if (line.length + 1 + part.length > WIDTH && line.trim() !== '') {
      lines.push(line);
      line = ' '.repeat(head.length);
    }
    line += ` ${part}`;
  }
  lines.push(line);
  return lines;
}

function flagLabel(f: FlagHelp): string {
  if (f.positional || f.flag === '--') return f.flag === '--' ? `-- ${f.value ?? 'ARGS'}` : f.flag;
  return `${f.flag}${f.value ? (f.optionalValue ? ` [${f.value}]` : ` ${f.value}`) : ''}`;
}

function flagDetails(f: FlagHelp): string {
  const extra = [f.default !== undefined ? `default: ${f.default}` : '', f.env ? `env: ${f.env}` : '', f.repeatable ? 'repeatable' : ''].filter(Boolean);
  return `${f.text}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

/** `ftf-conformance help <name>`. */
export function renderHelp(name: string, command: Command): string {
  const h = command.help;
  const labels = h.flags.map(flagLabel);
  const pad = Math.max(...labels.map((l) => l.length), 4) + 2;
  const out = [
    `usage: ${synopsis(name, h).join('\n       ')}`,
    '',
    command.summary,
    '',
    h.description,
    '',
    'options:',
    ...h.flags.map((f, i) => `  ${labels[i]!.padEnd(pad)}${flagDetails(f)}`),
    `  ${'--help, -h'.padEnd(pad)}this help`,
  ];
  if (h.env.length) {
    const width = Math.max(...h.env.map((n) => n.length)) + 2;
    out.push('', 'environment:', ...h.env.map((n) => `  ${n.padEnd(width)}${envVar(n).text}`));
  }
  out.push('', 'examples:', ...h.examples.flatMap((e) => [`  # ${e.text}`, `  ${e.command}`]));
  out.push('', `exit codes: 0 conformant, 1 non-conformant, 2 nothing tested / could not start, 3 internal error (docs/cli.md#${name})`);
  return out.join('\n');
}

/** `ftf-conformance help`: every command with its summary. */
export function renderOverview(commands: Record<string, Command>): string {
  return [
    'usage: ftf-conformance <command> [options]',
    '       ftf-conformance help <command>     every flag, variable and an example of one command',
    '       ftf-conformance --version',
    '',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`),
    '',
    'exit codes: 0 conformant, 1 non-conformant, 2 nothing tested / could not start, 3 internal error',
    'details: docs/cli.md',
  ].join('\n');
}

const md = (s: string): string => s.replace(/\|/g, '\\|');
const code = (s: string): string => `\`${s.replace(/\|/g, '\\|')}\``;

export const BEGIN = (name: string): string => `<!-- BEGIN generated help: ${name} (npm run docs:cli; edit src/cli/commands/${name}.ts) -->`;
export const END = (name: string): string => `<!-- END generated help: ${name} -->`;

/** The generated block of docs/cli.md for one command, markers included. */
export function renderMarkdown(name: string, command: Command): string {
  const h = command.help;
  const rows = h.flags.map((f) => `| ${code(flagLabel(f))} | ${md(f.text)}${f.repeatable ? ' (repeatable)' : ''} | ${f.default !== undefined ? md(f.default) : ''} | ${f.env ? code(f.env) : ''} |`);
  return [
    BEGIN(name),
    '',
    '```',
    ...synopsis(name, h),
    '```',
    '',
    md(h.description),
    '',
    '| flag | what it does | default | variable |',
    '|---|---|---|---|',
    ...rows,
    '',
    ...(h.env.length ? [`Environment: ${h.env.map((n) => `\`${n}\``).join(', ')} ([table](#environment-variables)).`, ''] : []),
    'Examples:',
    '',
    ...(h.runnableExamples ? ['<!-- runnable -->'] : []),
    '```sh',
    ...h.examples.flatMap((e) => [`# ${e.text}`, npxLine(e.command)]),
    '```',
    '',
    END(name),
  ].join('\n');
}

export const ENV_BEGIN = '<!-- BEGIN generated env (npm run docs:cli; edit src/cli/env-vars.ts) -->';
export const ENV_END = '<!-- END generated env -->';

/** The "Environment variables" section of docs/cli.md: the users' table, then the variables users do not set. */
export function renderEnvMarkdown(): string {
  const of = (kind: EnvVar['kind']): EnvVar[] => ENV_VARS.filter((v) => v.kind === kind);
  const list = (vars: EnvVar[]): string => vars.map((v) => `\`${v.name}\` (${v.text})`).join(', ');
  return [
    ENV_BEGIN,
    '',
    '| variable | effect |',
    '|---|---|',
    ...of(undefined).map((v) => `| \`${v.name}\` | ${md(v.text)} |`),
    '',
    `Set by \`client run\` for the client under test, the contract with it (docs/client-conformance.md): ${list(of('client'))}.`,
    '',
    `Set by the CLI for the processes it starts, not by hand: ${list(of('internal'))}.`,
    '',
    "Knobs of this repository's own scripts and benchmarks (a clone's developers; the CLI reads none of them):",
    '',
    '| variable | effect |',
    '|---|---|',
    ...of('script').map((v) => `| \`${v.name}\` | ${md(v.text)} |`),
    '',
    ENV_END,
  ].join('\n');
}

/**
 * docs/cli.md with every generated block replaced by its current rendering. Throws when a block's markers
 * are missing (a new command needs a `## name` section with its markers).
 */
export function updateCliDoc(doc: string, commands: Record<string, Command>): string {
  let out = doc;
  const blocks: [string, string, string][] = [
    ...Object.entries(commands).map(([name, c]): [string, string, string] => [BEGIN(name), END(name), renderMarkdown(name, c)]),
    [ENV_BEGIN, ENV_END, renderEnvMarkdown()],
  ];
  for (const [begin, end, body] of blocks) {
    const start = out.indexOf(begin);
    const stop = out.indexOf(end);
    if (start < 0 || stop < start) throw new Error(`docs/cli.md lacks the markers ${begin} … ${end}`);
    out = `${out.slice(0, start)}${body}${out.slice(stop + end.length)}`;
  }
  return out;
}
