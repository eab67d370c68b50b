/**
 * The base of every typed error in ftf-conformance. `code` is stable (documented in the README's error
 * table); `hint` says what to do about it; `location` points at the file/line/column or field at fault.
 */
export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
  /** JSON pointer or dotted path of the field at fault, e.g. `credentials.primary.client_id`. */
  field?: string;
}

export class FtfError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly location: ErrorLocation | undefined;

  constructor(code: string, message: string, options: { hint?: string; location?: ErrorLocation; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FtfError';
    this.code = code;
    this.hint = options.hint;
    this.location = options.location;
  }

  /** One readable line: `FTF_E_X: message (file:line:col) — hint`. */
  describe(): string {
    const loc = this.location;
    const where = loc?.file
      ? ` (${loc.file}${loc.line !== undefined ? `:${loc.line}` : ''}${loc.column !== undefined ? `:${loc.column}` : ''}${loc.field ? ` at ${loc.field}` : ''})`
      : loc?.field
        ? ` (at ${loc.field})`
        : '';
    return `${this.code}: ${this.message}${where}${this.hint ? ` — ${this.hint}` : ''}`;
  }
}
