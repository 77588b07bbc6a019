/**
 * @huggingface/jinja's Interpreter with Strata's checks. Every node goes through `evaluate`
 * (the library calls `this.evaluate` recursively), so one override sees the whole render: it
 * tracks depth and the current tag's position, counts appended output, charges work, predicts
 * the size of amplifying operations before they run, hides function source, and turns every
 * failure into a positioned `TemplateError`. Node types the library already evaluates safely
 * are delegated unchanged; operands Strata evaluated itself are handed back as value nodes.
 */
import { Interpreter } from "./vendor/huggingface-jinja.js";
import type { Environment } from "./vendor/huggingface-jinja.js";
import { TemplateError } from "../errors.ts";
import type { AstNode } from "./ast.ts";
import { STRATA_NODE, metaOf } from "./ast.ts";
import type { FilterArgs } from "./filters.ts";
import { PREDICTED_FILTERS, checkPrinted, checkReplace, deepWork, planFilter, sortWork } from "./filters.ts";
import { valueClasses } from "./data.ts";
import type { RenderGuard } from "./guard.ts";
import { WORK_UNITS } from "./guard.ts";
import { TEMPLATE_ERROR_CODES } from "./limits.ts";
import type { RuntimeValue, Statement, Value } from "./values.ts";
import {
  asValue,
  compactJson,
  hideSource,
  isContainer,
  isList,
  isLoopControl,
  isMapping,
  isString,
  nullValue,
  sameKind,
  sliceText,
  valueNode,
  workOf,
} from "./values.ts";

/** Methods charged by what they read: their subject (case changes, strip, split), arguments or sort. */
const CHARGED_METHODS: ReadonlySet<string> = new Set([
  "replace",
  "startswith",
  "endswith",
  "split",
  "upper",
  "lower",
  "strip",
  "lstrip",
  "rstrip",
  "title",
  "capitalize",
  "dictsort",
]);

const PRIMITIVE_TYPES: ReadonlySet<string> = new Set(["string", "number", "boolean"]);
const SURROGATE = /[\uD800-\uDFFF]/;
const SLICE_FIELDS = [
  ["start", "start"],
  ["stop", "stop"],
  ["step", "step"],
] as const;

/** Thrown by the template's `raise_exception(message)`. */
export class RaisedByTemplate extends Error {}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  StringValue: "string",
  IntegerValue: "integer",
  FloatValue: "float",
  BooleanValue: "boolean",
  ObjectValue: "dict",
  KeywordArgumentsValue: "keyword arguments",
  NamespaceValue: "namespace",
  ArrayValue: "list",
  TupleValue: "tuple",
  FunctionValue: "function",
  NullValue: "none",
  UndefinedValue: "undefined",
};

/** Library messages name internal classes ("ArrayValue"); say "list" instead. */
export function friendlyMessage(message: string): string {
  return message.replace(
    /\b(?:String|Integer|Float|Boolean|Object|KeywordArguments|Namespace|Array|Tuple|Function|Null|Undefined)Value\b/g,
    (m) => TYPE_NAMES[m] ?? m,
  );
}

export function positionSuffix(pos: { line: number; column: number } | undefined): string {
  return pos === undefined ? "" : ` (line ${pos.line}, column ${pos.column})`;
}

export class SandboxedInterpreter extends Interpreter {
  private readonly scratchBinary = {
    type: "BinaryExpression",
    operator: undefined as unknown,
    left: { type: STRATA_NODE.value, value: undefined as unknown },
    right: { type: STRATA_NODE.value, value: undefined as unknown },
  };

  constructor(
    env: Environment,
    private readonly guard: RenderGuard,
  ) {
    super(env);
  }

  override evaluate(statement: Statement | undefined, environment: Environment): RuntimeValue {
    if (statement === undefined) return super.evaluate(statement, environment);
    const node = statement as unknown as AstNode;
    const g = this.guard;
    switch (node.type) {
      case STRATA_NODE.value:
        return node["value"] as RuntimeValue;
      case STRATA_NODE.tick:
        g.iterate();
        return nullValue();
      case STRATA_NODE.tickTest:
        g.iterate();
        return this.evaluate(node["inner"] as Statement, environment);
      case STRATA_NODE.iterable: {
        const iterable = this.evaluate(node["inner"] as Statement, environment);
        // The library prepares a scope for every item before the first iteration.
        g.charge(workOf(asValue(iterable)) * WORK_UNITS.loopItem);
        return iterable;
      }
    }
    const meta = metaOf(node);
    const nests = meta?.elif !== true;
    if (nests && ++g.depth > g.limits.maxDepth) {
      g.depth--;
      throw g.limit("maxDepth", `Rendering nests more than ${g.limits.maxDepth} levels deep (a macro calling itself?)`);
    }
    const outerPos = g.pos;
    if (meta?.pos !== undefined) g.pos = meta.pos;
    const writtenBefore = g.written;
    try {
      g.charge(1);
      const value = this.dispatch(node, environment);
      const v = asValue(value);
      if (v.type === "FunctionValue") hideSource(v);
      if (meta?.appended === true) this.append(v, writtenBefore);
      return value;
    } catch (error) {
      throw this.toTemplateError(error);
    } finally {
      if (nests) g.depth--;
      g.pos = outerPos;
    }
  }

  private dispatch(node: AstNode, env: Environment): RuntimeValue {
    switch (node.type) {
      case "FilterExpression":
        return this.filter(asValue(this.evaluate(node["operand"] as Statement, env)), node["filter"] as AstNode, env);
      case "FilterStatement": {
        const body = super.evaluate({ type: "Program", body: node["body"] } as unknown as Statement, env);
        return this.filter(asValue(body), node["filter"] as AstNode, env);
      }
      case "BinaryExpression":
        return this.binary(node, env);
      case "MemberExpression":
        return this.member(node, env);
      case "CallExpression": {
        const value = super.evaluate(node as unknown as Statement, env);
        this.built(asValue(value), "A call");
        return value;
      }
      case "TestExpression": {
        const test = (node["test"] as { value?: unknown }).value;
        if (test !== "lower" && test !== "upper") return super.evaluate(node as unknown as Statement, env);
        // Case tests convert the whole string.
        const operand = asValue(this.evaluate(node["operand"] as Statement, env));
        this.guard.charge(workOf(operand));
        return super.evaluate({ ...node, operand: valueNode(operand) } as unknown as Statement, env);
      }
      default:
        return super.evaluate(node as unknown as Statement, env);
    }
  }

  /** Charges a freshly built value and checks its size (see `RenderGuard.checkBuilt` for `what` and `quoted`). */
  private built(value: Value, what: string, quoted?: string): void {
    this.guard.charge(workOf(value));
    if (isString(value)) this.guard.checkBuilt(value.value.length, what, quoted);
  }

  /** Counts what a block appends; output already counted inside (a macro's body) counts once. */
  private append(value: Value, writtenBefore: number): void {
    if (value.type === "NullValue" || value.type === "UndefinedValue") return;
    let length: number;
    if (isString(value)) length = value.value.length;
    else {
      if (isContainer(value)) checkPrinted(this.guard, value, "Printing a list or dict");
      length = value.toString().length;
    }
    this.guard.wrote(length - (this.guard.written - writtenBefore));
  }

  private evaluateArgs(nodes: readonly AstNode[], env: Environment): FilterArgs {
    const positional: RuntimeValue[] = [];
    const keyword = new Map<string, RuntimeValue>();
    for (const node of nodes) {
      if (node.type === "SpreadExpression") {
        const spread = asValue(this.evaluate(node["argument"] as Statement, env));
        if (!isList(spread)) throw new TypeError(`Cannot unpack non-iterable type: ${spread.type}`);
        positional.push(...spread.value);
      } else if (node.type !== "KeywordArgumentExpression" && node.type !== "KeywordSpreadExpression") {
        positional.push(this.evaluate(node as unknown as Statement, env));
      }
    }
    for (const node of nodes) {
      if (node.type === "KeywordArgumentExpression") {
        const key = (node["key"] as { value: string }).value;
        if (keyword.has(key)) throw new TypeError(`Got multiple values for keyword argument '${key}'`);
        keyword.set(key, this.evaluate(node["value"] as Statement, env));
      } else if (node.type === "KeywordSpreadExpression") {
        const spread = asValue(this.evaluate(node["argument"] as Statement, env));
        if (spread.type !== "ObjectValue" || !isMapping(spread))
          throw new TypeError(`Argument after ** must be a mapping, not ${spread.type}`);
        for (const [key, value] of spread.value) {
          if (keyword.has(key)) throw new TypeError(`Got multiple values for keyword argument '${key}'`);
          keyword.set(key, value);
        }
      }
    }
    return { positional, keyword };
  }

  private filter(operand: Value, filterNode: AstNode, env: Environment): RuntimeValue {
    const callee = filterNode.type === "CallExpression" ? (filterNode["callee"] as AstNode) : filterNode;
    const name = callee.type === "Identifier" ? (callee["value"] as string) : "";
    this.guard.charge(workOf(operand));
    let filter: AstNode = filterNode;
    if (PREDICTED_FILTERS.has(name)) {
      const args =
        filterNode.type === "CallExpression"
          ? this.evaluateArgs(filterNode["args"] as AstNode[], env)
          : { positional: [], keyword: new Map<string, RuntimeValue>() };
      const planned = planFilter(this.guard, name, operand, args);
      operand = planned.operand;
      if (filterNode.type === "CallExpression") {
        filter = {
          type: "CallExpression",
          callee,
          args: [
            ...planned.args.positional.map(valueNode),
            ...[...planned.args.keyword].map(([key, value]) => ({
              type: "KeywordArgumentExpression",
              key: { type: "Identifier", value: key },
              value: valueNode(value),
            })),
          ],
        };
      }
    }
    const value =
      name === "tojson" && filterNode.type === "Identifier"
        ? new (valueClasses().string)(compactJson(operand))
        : super.evaluate(
            { type: "FilterExpression", operand: valueNode(operand), filter } as unknown as Statement,
            env,
          );
    this.built(asValue(value), "The filter ", name);
    return value;
  }

  private binary(node: AstNode, env: Environment): RuntimeValue {
    const operator = (node["operator"] as { value: string }).value;
    if (operator === "and" || operator === "or") return super.evaluate(node as unknown as Statement, env);
    const left = asValue(this.evaluate(node["left"] as Statement, env));
    const right = asValue(this.evaluate(node["right"] as Statement, env));
    this.guard.charge(workOf(left) + workOf(right));
    if (operator === "+" && isList(left) && isList(right)) {
      this.guard.checkList(left.value.length + right.value.length, "List concatenation");
    } else if (operator === "~" || operator === "+") {
      if (isContainer(left)) checkPrinted(this.guard, left, `"${operator}"`);
      if (isContainer(right)) checkPrinted(this.guard, right, `"${operator}"`);
    } else if (operator === "==" || operator === "!=") {
      // Loose equality of a list with a string, number or boolean prints the list (nested lists as JSON).
      const list = isList(left) ? right : isList(right) ? left : undefined;
      if (list !== undefined && !isList(list) && PRIMITIVE_TYPES.has(typeof list.value))
        checkPrinted(this.guard, isList(left) ? left : right, `"${operator}"`);
    }
    // The two operators of nearly every chat template, computed as the library computes them
    // (loose equality of the two values; `+` of two strings is their concatenation) without a
    // second pass through the library's operand checks.
    if (operator === "==" || operator === "!=") {
      const equal = left.value == right.value;
      return new (valueClasses().boolean)(operator === "==" ? equal : !equal);
    }
    if (operator === "+" && isString(left) && isString(right)) {
      const text = left.value + right.value;
      this.guard.checkBuilt(text.length, "", operator);
      return new (valueClasses().string)(text);
    }
    // The library evaluates the operands Strata already has from a reused node: nothing it runs
    // for an operator evaluates another node, so the node is free again when it returns.
    const scratch = this.scratchBinary;
    scratch.operator = node["operator"];
    scratch.left.value = left;
    scratch.right.value = right;
    const value = super.evaluate(scratch as unknown as Statement, env);
    const v = asValue(value);
    if (isString(v)) this.guard.checkBuilt(v.value.length, "", operator);
    return value;
  }

  private member(node: AstNode, env: Environment): RuntimeValue {
    const property = node["property"] as AstNode;
    const computed = node["computed"] === true;
    const isSlice = property.type === "SliceExpression";
    const literal = !computed || property.type === "StringLiteral" || property.type === "IntegerLiteral";
    // Fast path: a fixed name or index that is no method whose cost depends on its arguments.
    if (!isSlice && literal && !CHARGED_METHODS.has(property["value"] as string))
      return super.evaluate(node as unknown as Statement, env);
    const object = asValue(this.evaluate(node["object"] as Statement, env));
    if (isSlice && isString(object)) {
      const sliced = this.sliceString(object, property, env);
      if (sliced !== undefined) {
        this.built(asValue(sliced), "A slice");
        return sliced;
      }
    }
    let name = literal ? property["value"] : undefined;
    let propertyNode: unknown = property;
    if (computed && !isSlice && !literal) {
      const key = asValue(this.evaluate(property as unknown as Statement, env));
      if (isString(key)) name = key.value;
      propertyNode = valueNode(key);
    }
    const value = super.evaluate(
      { type: "MemberExpression", object: valueNode(object), property: propertyNode, computed } as unknown as Statement,
      env,
    );
    const v = asValue(value);
    if (isSlice) this.built(v, "A slice");
    else if (typeof name === "string" && v.type === "FunctionValue" && CHARGED_METHODS.has(name))
      return this.chargedMethod(name, object, v);
    return value;
  }

  /**
   * `s[a:b:c]` of a string without surrogates, in time of its output (the library first makes an
   * array of every code point of `s`). Returns undefined for the library's own path, charged by
   * the input's length.
   */
  private sliceString(object: Value & { value: string }, slice: AstNode, env: Environment): RuntimeValue | undefined {
    const g = this.guard;
    const text = object.value;
    let plain = g.plainStrings.get(object);
    if (plain === undefined) {
      g.charge(text.length >>> 6);
      plain = !SURROGATE.test(text);
      g.plainStrings.set(object, plain);
    }
    if (!plain) {
      g.charge(text.length >>> 2);
      return undefined;
    }
    const bounds: (number | undefined)[] = [];
    for (const [field, label] of SLICE_FIELDS) {
      const bound = asValue(this.evaluate(slice[field] as Statement | undefined, env));
      if (bound.type !== "IntegerValue" && bound.type !== "UndefinedValue")
        throw new Error(`Slice ${label} must be numeric or undefined`);
      bounds.push(bound.value as number | undefined);
    }
    return sameKind(object, sliceText(text, bounds[0], bounds[1], bounds[2] ?? 1));
  }

  /** A string, list or dict method whose cost depends on its subject or arguments, charged before it runs. */
  private chargedMethod(name: string, subject: Value, method: Value): RuntimeValue {
    const run = method.value as (args: RuntimeValue[], scope: Environment) => RuntimeValue;
    const guard = this.guard;
    const charged = (args: RuntimeValue[], scope: Environment) => {
      if (name === "replace") {
        if (isString(subject)) checkReplace(guard, subject.value, args);
      } else if (name === "startswith" || name === "endswith") {
        for (const arg of args) guard.charge(deepWork(guard, asValue(arg)));
      } else if (name === "dictsort") {
        guard.charge(sortWork(guard, subject));
      } else guard.charge(workOf(subject));
      return run(args, scope);
    };
    return sameKind(method, charged);
  }

  private toTemplateError(error: unknown): unknown {
    if (error instanceof TemplateError || isLoopControl(error)) return error;
    const g = this.guard;
    if (error instanceof RangeError) {
      if (/call stack|recursion/i.test(error.message)) return g.limit("maxDepth", "Rendering recursed too deep");
      if (/invalid (?:string|array) length|allocation/i.test(error.message)) {
        return g.limit("maxOutputChars", "The template builds a value too large for the runtime");
      }
    }
    if (error instanceof RaisedByTemplate) {
      return new TemplateError(
        TEMPLATE_ERROR_CODES.raised,
        `The template raised an exception${positionSuffix(g.pos)}: ${error.message}`,
        g.pos,
        { cause: error },
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    return new TemplateError(
      TEMPLATE_ERROR_CODES.render,
      `Template render error${positionSuffix(g.pos)}: ${friendlyMessage(message)}`,
      g.pos,
      {
        cause: error,
      },
    );
  }
}
