import { FtfError } from '../../shared/errors.js';

/** A syntax or evaluation error in a scenario expression; names the expression and the column inside it. */
export class ExpressionError extends FtfError {
  readonly expression: string;
  readonly position: number;

  constructor(expression: string, position: number, message: string, hint?: string) {
    super('FTF_E_EXPRESSION', `${message} in expression \`${expression}\` at position ${position + 1}`, {
      hint: hint ?? 'see docs/scenario-format.md#expressions',
    });
    this.name = 'ExpressionError';
    this.expression = expression;
    this.position = position;
  }
}
