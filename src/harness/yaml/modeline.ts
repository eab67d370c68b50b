/**
 * The YAML language-server modeline (`# yaml-language-server: $schema=<relative path>`) each YAML file of
 * ours starts with, so an editor validates and completes it: scenarios (specs/<family>/*.yaml) ->
 * schemas/scenario.schema.json, step groups (specs/_steps/*.yaml) -> schemas/step-group.schema.json,
 * target profiles (fixtures/targets/*.yaml, and what `init` writes) -> schemas/target.schema.json.
 * `npm run modelines` writes them; test/harness/editor-schemas.test.ts fails when one is missing or wrong.
 */
import { dirname, join, relative, sep } from 'node:path';
import { REPO_ROOT } from '../repo-root.js';

export const SCHEMA_FILES = {
  scenario: join(REPO_ROOT, 'schemas/scenario.schema.json'),
  stepGroup: join(REPO_ROOT, 'schemas/step-group.schema.json'),
  target: join(REPO_ROOT, 'schemas/target.schema.json'),
} as const;

export type SchemaKind = keyof typeof SCHEMA_FILES;

const PREFIX = '# yaml-language-server: $schema=';

/** The modeline for a YAML file at `file` (absolute) validated by `kind`: the schema path relative to its folder. */
export function modeline(file: string, kind: SchemaKind): string {
  const rel = relative(dirname(file), SCHEMA_FILES[kind]).split(sep).join('/');
  return `${PREFIX}${rel.startsWith('.') ? rel : `./${rel}`}`;
}

/** Which schema a repository YAML file belongs to (undefined: none of ours). */
export function schemaKindOf(file: string): SchemaKind | undefined {
  const rel = relative(REPO_ROOT, file).split(sep);
  if (rel[0] === 'specs') return rel.includes('_steps') ? 'stepGroup' : 'scenario';
  if (rel[0] === 'fixtures' && rel[1] === 'targets' && !rel.at(-1)?.endsWith('.waivers.yaml')) return 'target';
  return undefined;
}

/** `text` with `line` as its first line: an existing modeline is replaced, otherwise it is prepended. */
export function withModeline(text: string, line: string): string {
  const [first, ...rest] = text.split('\n');
  if (first?.startsWith(PREFIX)) return [line, ...rest].join('\n');
  return `${line}\n${text}`;
}
