/** The expression language: `${…}` interpolation and bare expressions (where/until). See docs/scenario-format.md. */
export { ExpressionError } from './errors.js';
export { parseExpression, freeVariables, calledFunctions, type Node } from './parser.js';
export { evaluateNode, type Scope } from './evaluator.js';
export { evaluate, compileExpression, interpolateString, resolveDeep, parseTemplate, expressionsIn, bareExpression } from './interpolate.js';
export { FUNCTIONS, FUNCTION_NAMES } from './functions.js';
export { D, deepEqual, getPointer, isDecimal, isNumeric, isPlainObject, preview, toDecimal, toPlainJson, toText, typeName } from './values.js';
