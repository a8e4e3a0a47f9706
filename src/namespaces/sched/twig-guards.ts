// Runtime guards on Twig.js's evaluation: values are resolved and never called, variables and
// keys are own properties of plain data, and every expression, tag and block is charged.
import { FUNCTIONS } from './twig-filters.ts';
import { TemplateLimitError } from './twig-errors.ts';
import {
  charge,
  chargeText,
  dataValue,
  internals,
  isSafeKey,
  made,
  MAX_OUTPUT,
  run,
  runtimeError,
  safeGet,
  textLength,
} from './twig-sandbox.ts';

{
  const T = internals.expression.type;
  const P = internals.Promise;
  const handler = internals.expression.handler;
  // Values are resolved, never called.
  internals.expression.resolveAsync = function (value: unknown) {
    if (typeof value === 'function') throw runtimeError('Calling methods is not allowed in the sandbox.');
    return P.resolve(value);
  };
  // Variables are own properties of the context (loop contexts are spread copies with a prototype).
  handler[T.variable].parse = function (token: { value: string }, stack: unknown[], context: Record<string, unknown>) {
    stack.push(
      isSafeKey(token.value) && Object.hasOwn(context, token.value) ? dataValue(context[token.value]) : undefined,
    );
    return P.resolve(undefined);
  };
  handler[T.key.period].parse = function (token: { key: string; params?: unknown }, stack: unknown[]) {
    if (token.params) throw runtimeError('Calling methods is not allowed in the sandbox.');
    const object = stack.pop();
    stack.push(safeGet(object, token.key));
    return P.resolve(undefined);
  };
  const origParseAsync = internals.expression.parseAsync;
  handler[T.key.brackets].parse = function (
    this: unknown,
    token: { stack: unknown[]; params?: unknown },
    stack: unknown[],
    context: unknown,
  ) {
    if (token.params) throw runtimeError('Calling methods is not allowed in the sandbox.');
    const object = stack.pop();
    return (origParseAsync.call(this, token.stack, context) as Promise<unknown>).then((key) => {
      const v = safeGet(object, key);
      stack.push(v === undefined ? null : v);
    });
  };
  // Functions resolve from the sandbox's table only, never from the context.
  const fnHandler = handler[T._function];
  const origFunction = fnHandler.parse;
  fnHandler.parse = function (this: unknown, token: { fn: string }, ...rest: unknown[]) {
    if (!Object.hasOwn(FUNCTIONS, token.fn)) throw runtimeError(`Function "${token.fn}" is not allowed.`);
    return origFunction.call(this, token, ...rest);
  };
  // Computed keys of object literals (`{(a ~ b): 1}`) are checked like written ones.
  const binary = handler[T.operator.binary];
  const origBinary = binary.parse;
  binary.parse = function (this: unknown, token: { key?: unknown }, ...rest: unknown[]) {
    const checkKey = () => {
      if (token.key !== undefined && !isSafeKey(token.key))
        throw runtimeError(`Key "${String(token.key)}" is not allowed in the sandbox.`);
    };
    const result = origBinary.call(this, token, ...rest) as Promise<unknown> | undefined;
    if (result && typeof result.then === 'function') return result.then(checkKey);
    checkKey();
    return result;
  };
  internals.expression.parseAsync = function (this: unknown, tokens: unknown, ...rest: unknown[]) {
    charge(1);
    const first = Array.isArray(tokens) ? (tokens[0] as { position?: { start: number } } | undefined) : undefined;
    if (first?.position) run.offset = first.position.start;
    return origParseAsync.call(this, tokens, ...rest);
  };
  const origLogic = internals.logic.parseAsync;
  internals.logic.parseAsync = function (this: unknown, token: { position?: { start: number } }, ...rest: unknown[]) {
    charge(1);
    if (token?.position) run.offset = token.position.start;
    return origLogic.call(this, token, ...rest);
  };
  // Every block body parsed (each loop iteration included) counts as a step.
  const origState = internals.ParseState.prototype.parseAsync;
  internals.ParseState.prototype.parseAsync = function (this: unknown, ...args: unknown[]) {
    charge(1);
    return origState.apply(this, args);
  };
  const operator = internals.expression.operator;
  const origOperator = operator.parse;
  operator.parse = function (this: unknown, op: string, stack: unknown[]) {
    const r = origOperator.call(this, op, stack);
    made(stack[stack.length - 1]);
    return r;
  };
  // Output is joined once per block, loop and template: its length is known before the join.
  const origOutput = internals.output;
  internals.output = function (this: unknown, parts: unknown[]) {
    let length = 0;
    for (let i = 0; i < parts.length && length <= MAX_OUTPUT; i++) length += textLength(parts[i], MAX_OUTPUT - length);
    if (length > MAX_OUTPUT)
      throw new TemplateLimitError('size', `The template produces more than ${MAX_OUTPUT} characters.`);
    chargeText(length);
    return origOutput.call(this, parts);
  };
}
