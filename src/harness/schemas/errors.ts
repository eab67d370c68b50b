/**
 * Typed errors of the schema registry. Codes are stable:
 * - FTF_E_SCHEMA_UNKNOWN          validate() was given a name or $id that no schema file defines
 * - FTF_E_SCHEMA_LOAD             a file under schemas/api is unreadable, not JSON, or fails to compile
 * - FTF_E_OPERATION_MAP_INVALID   schemas/operations.yaml is malformed or names an unknown schema / $paths key
 * - FTF_E_OPERATION_AMBIGUOUS     two operations of one base and method resolve to the same path shape
 * - FTF_E_TARGET_FIELD_INVALID    a target profile `fields` pointer is not a JSON pointer / field name
 * - FTF_E_TARGET_PATH_INVALID     a target profile `paths` value is not a path relative to base_url
 */
import { FtfError, type ErrorLocation } from '../../shared/errors.js';

export type SchemaErrorCode =
  | 'FTF_E_SCHEMA_UNKNOWN'
  | 'FTF_E_SCHEMA_LOAD'
  | 'FTF_E_OPERATION_MAP_INVALID'
  | 'FTF_E_OPERATION_AMBIGUOUS'
  | 'FTF_E_TARGET_FIELD_INVALID'
  | 'FTF_E_TARGET_PATH_INVALID';

export class SchemaError extends FtfError {
  constructor(code: SchemaErrorCode, message: string, options: { hint?: string; location?: ErrorLocation; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'SchemaError';
  }
}
