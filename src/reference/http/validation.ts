/**
 * Request validation: two Ajv instances compiled once per schema. Bodies are validated strictly (no type
 * coercion: "1000000" is not a number); path and query values are coerced from strings. Errors are turned
 * into the spec's 422 shape in ONE function, used by the one error handler (errors.ts).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: false, coerceTypes: coerce, useDefaults: true, strict: false });
  addFormats(ajv);
  return ajv;
}

const strictAjv = makeAjv(false);
const coercingAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema as object);
  return validate as (data: unknown) => boolean;
};

/** Compiles a body schema for validation inside a handler (POST /subscribe validates after its replay check). */
export function compileBodySchema(schema: object): ValidateFunction {
  return strictAjv.compile(schema);
}

export interface ValidationProblem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

const CONTEXT: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Maps ajv errors of one request part to `[{loc, msg, type}]` (FastAPI-like locations). */
export function toValidationDetail(errors: ReadonlyArray<Partial<ErrorObject>>, context: string | undefined): ValidationProblem[] {
  const where = CONTEXT[context ?? 'body'] ?? 'body';
  const out = errors.map((e) => {
    const path = (e.instancePath ?? '').split('/').filter((s) => s !== '').map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));
    const params = (e.params ?? {}) as Record<string, unknown>;
    const loc: Array<string | number> = [where, ...path];
    switch (e.keyword) {
      case 'required':
        return { loc: [...loc, String(params.missingProperty)], msg: 'Field required', type: 'missing' };
      case 'type':
        return { loc, msg: `Input should be a valid ${String(params.type)}`, type: `${String(params.type).split(',')[0]}_type` };
      case 'format':
        return { loc, msg: `Input should be a valid ${String(params.format)}`, type: `${String(params.format)}_format` };
      case 'enum':
        return { loc, msg: `Input should be one of: ${(params.allowedValues as unknown[] | undefined)?.join(', ') ?? ''}`, type: 'enum' };
      case 'minimum': case 'exclusiveMinimum':
        return { loc, msg: `Input should be ${e.keyword === 'minimum' ? 'greater than or equal to' : 'greater than'} ${String(params.limit)}`, type: 'greater_than' };
      case 'maximum': case 'exclusiveMaximum':
        return { loc, msg: `Input should be ${e.keyword === 'maximum' ? 'less than or equal to' : 'less than'} ${String(params.limit)}`, type: 'less_than' };
      case 'minLength':
        return { loc, msg: `String should have at least ${String(params.limit)} characters`, type: 'string_too_short' };
      case 'maxLength':
        return { loc, msg: `String should have at most ${String(params.limit)} characters`, type: 'string_too_long' };
      case 'pattern':
        return { loc, msg: `String should match pattern '${String(params.pattern)}'`, type: 'string_pattern_mismatch' };
      default:
        return { loc, msg: e.message ?? 'Invalid value', type: e.keyword ?? 'value_error' };
    }
  });
  return out.length > 0 ? out : [{ loc: [where], msg: 'Invalid request', type: 'value_error' }];
}

/** An error the error handler answers as 422 (same shape Fastify gives its own validation errors). */
export class RequestValidationError extends Error {
  readonly statusCode = 422;
  constructor(readonly validation: ReadonlyArray<Partial<ErrorObject>>, readonly validationContext: string) {
    super('request validation failed');
  }
}
