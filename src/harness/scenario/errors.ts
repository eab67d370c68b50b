/** The typed error of scenario and step-group files: FTF_E_SCENARIO_INVALID at the node's file:line:column. */
import { FtfError } from '../../shared/errors.js';
import { describeYamlProblem, type Located, type YamlSource } from '../yaml/source.js';

export function scenarioError(message: string, at: Located, hint?: string, cause?: unknown): FtfError {
  return new FtfError('FTF_E_SCENARIO_INVALID', message, {
    hint: hint ?? 'see docs/scenario-format.md',
    location: { file: at.file, line: at.line, column: at.column },
    cause,
  });
}

/** Every syntax problem of the file, each where it starts. */
export function syntaxErrors(src: YamlSource): FtfError[] {
  return src.problems.map((p) => scenarioError(describeYamlProblem(p), p, 'fix the YAML syntax (indentation, quotes, colons)'));
}
