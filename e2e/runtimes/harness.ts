/**
 * A vitest-compatible test API for runtimes that cannot host vitest itself
 * (workerd, edge-runtime, Deno, Bun). The core test files import "vitest";
 * the runtime bundles alias that import to this module, so the very same files
 * run everywhere. Matchers are vitest's own (@vitest/expect on chai), so an
 * assertion means the same thing in every runtime.
 */
import {
  ASYMMETRIC_MATCHERS_OBJECT,
  GLOBAL_EXPECT,
  JestAsymmetricMatchers,
  JestChaiExpect,
  JestExtend,
  chai,
  getState,
  setState,
} from "@vitest/expect";
import { fn, spyOn } from "@vitest/spy";

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

type Expect = ((value: unknown, message?: string) => Chai.Assertion) & Record<string, unknown>;
const expectFn = ((value: unknown, message?: string) => {
  const state = getState(expectFn as never) as { assertionCalls: number };
  setState({ assertionCalls: state.assertionCalls + 1 }, expectFn as never);
  return chai.expect(value, message);
}) as unknown as Expect;
Object.assign(expectFn, chai.expect);
Object.assign(expectFn, (globalThis as Record<PropertyKey, unknown>)[ASYMMETRIC_MATCHERS_OBJECT]);
expectFn["getState"] = () => getState(expectFn as never);
expectFn["setState"] = (state: object) => setState(state as never, expectFn as never);
expectFn["extend"] = (matchers: object) =>
  (chai.expect as unknown as { extend: (e: unknown, m: object) => void }).extend(expectFn, matchers);
setState(
  {
    assertionCalls: 0,
    isExpectingAssertions: false,
    isExpectingAssertionsError: null,
    expectedAssertionsNumber: null,
    expectedAssertionsNumberErrorGen: null,
  },
  expectFn as never,
);
(globalThis as Record<PropertyKey, unknown>)[GLOBAL_EXPECT] = expectFn;

export const expect = expectFn;
export const vi = { fn, spyOn };

type Fn = () => unknown;
type Body = (...args: unknown[]) => unknown;
interface Hooks {
  beforeEach: Fn[];
  afterEach: Fn[];
  beforeAll: Fn[];
  afterAll: Fn[];
}
interface Case {
  readonly name: string;
  /** Called with the test context (plain tests) or with the table row (each/for), see `define`. */
  readonly fn: ((context: TestContext) => unknown) | undefined;
  readonly skip: boolean;
  /** `it.fails`: passes only when the body throws. */
  readonly fails: boolean;
  readonly scopes: readonly Hooks[];
}
/** vitest's `it(name, options, fn)` / `it(name, fn, options | timeout)`; timeouts are not enforced here. */
interface TestOptions {
  readonly skip?: boolean;
  readonly only?: boolean;
  readonly todo?: boolean;
  readonly fails?: boolean;
  readonly concurrent?: boolean;
  readonly timeout?: number;
}
/** The part of vitest's test context a runtime-agnostic test can use. */
export interface TestContext {
  readonly task: { readonly name: string };
  readonly expect: typeof expectFn;
  readonly skip: (note?: string) => never;
  readonly onTestFinished: (fn: () => unknown) => void;
}

class SkipSignal extends Error {}

const cases: Case[] = [];
const scopeStack: { name: string; hooks: Hooks; skip: boolean }[] = [
  { name: "", hooks: { beforeEach: [], afterEach: [], beforeAll: [], afterAll: [] }, skip: false },
];
const current = () => scopeStack[scopeStack.length - 1]!;

function formatName(template: string, row: unknown, index: number): string {
  const args = Array.isArray(row) ? row : [row];
  let i = 0;
  let out = template.replace(/%[sdifjo#%]/g, (token) => {
    if (token === "%%") return "%";
    if (token === "%#") return String(index);
    const value = args[i++];
    if (token === "%s") return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
    if (token === "%d" || token === "%i" || token === "%f") return String(Number(value));
    return JSON.stringify(value) ?? String(value);
  });
  if (row !== null && typeof row === "object" && !Array.isArray(row)) {
    out = out.replace(/\$([A-Za-z_][\w.]*)/g, (whole, key: string) => {
      const value = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], row);
      return value === undefined ? whole : typeof value === "string" ? value : JSON.stringify(value);
    });
  }
  return out;
}

/** Sorts vitest's overloads: (fn), (fn, timeout), (fn, options), (options, fn). */
function normalize(a: unknown, b: unknown): { body: Body | undefined; options: TestOptions } {
  if (typeof a === "function")
    return { body: a as Body, options: typeof b === "object" && b !== null ? (b as TestOptions) : {} };
  if (typeof a === "object" && a !== null)
    return { body: typeof b === "function" ? (b as Body) : undefined, options: a as TestOptions };
  return { body: undefined, options: {} };
}

function register(
  name: string,
  body: ((context: TestContext) => unknown) | undefined,
  skip: boolean,
  options: TestOptions = {},
): void {
  const names = scopeStack.map((s) => s.name).filter(Boolean);
  cases.push({
    name: [...names, name].join(" > "),
    fn: body,
    skip:
      skip || options.skip === true || options.todo === true || body === undefined || scopeStack.some((s) => s.skip),
    fails: options.fails === true,
    scopes: scopeStack.map((s) => s.hooks),
  });
}

function suite(name: string, body: Body | ((context: TestContext) => unknown) | undefined, skip: boolean): void {
  scopeStack.push({ name, hooks: { beforeEach: [], afterEach: [], beforeAll: [], afterAll: [] }, skip });
  try {
    const result = (body as Body | undefined)?.();
    if (result instanceof Promise) throw new Error(`describe("${name}") must be synchronous`);
  } finally {
    scopeStack.pop();
  }
}

type EachRunner = (name: string, a?: unknown, b?: unknown) => void;
/** `it.each` spreads array rows into arguments; `it.for` passes the row whole plus the context. */
function makeTable(
  define: (name: string, body: (context: TestContext) => unknown, options: TestOptions) => void,
  spread: boolean,
) {
  return (table: readonly unknown[]): EachRunner =>
    (name, a, b) => {
      const { body, options } = normalize(a, b);
      table.forEach((row, index) => {
        const call = spread
          ? () => body?.(...(Array.isArray(row) ? row : [row]))
          : (context: TestContext) => body?.(row, context);
        define(formatName(name, row, index), call, options);
      });
    };
}

type TestApi = ((name: string, a?: unknown, b?: unknown) => void) & {
  skip: (name: string, a?: unknown, b?: unknown) => void;
  only: (name: string, a?: unknown, b?: unknown) => void;
  concurrent: (name: string, a?: unknown, b?: unknown) => void;
  fails: (name: string, a?: unknown, b?: unknown) => void;
  todo: (name: string) => void;
  each: (table: readonly unknown[]) => EachRunner;
  for: (table: readonly unknown[]) => EachRunner;
  skipIf: (condition: unknown) => (name: string, a?: unknown, b?: unknown) => void;
  runIf: (condition: unknown) => (name: string, a?: unknown, b?: unknown) => void;
};

const define =
  (skip: boolean, extra: TestOptions = {}) =>
  (name: string, a?: unknown, b?: unknown) => {
    const { body, options } = normalize(a, b);
    register(name, body, skip, { ...options, ...extra });
  };

export const it: TestApi = Object.assign(define(false), {
  skip: define(true),
  only: define(false),
  concurrent: define(false),
  fails: define(false, { fails: true }),
  todo: (name: string) => register(name, undefined, true),
  each: makeTable((name, body, options) => register(name, body, false, options), true),
  for: makeTable((name, body, options) => register(name, body, false, options), false),
  skipIf: (condition: unknown) => define(Boolean(condition)),
  runIf: (condition: unknown) => define(!condition),
});
export const test = it;

const defineSuite = (skip: boolean) => (name: string, a?: unknown, b?: unknown) => {
  const { body, options } = normalize(a, b);
  suite(name, body, skip || options.skip === true);
};
export const describe = Object.assign(defineSuite(false), {
  skip: defineSuite(true),
  only: defineSuite(false),
  concurrent: defineSuite(false),
  skipIf: (condition: unknown) => defineSuite(Boolean(condition)),
  runIf: (condition: unknown) => defineSuite(!condition),
  each: makeTable((name, body) => suite(name, body, false), true),
  for: makeTable((name, body) => suite(name, body, false), false),
});

export const beforeEach = (hook: Fn) => void current().hooks.beforeEach.push(hook);
export const afterEach = (hook: Fn) => void current().hooks.afterEach.push(hook);
export const beforeAll = (hook: Fn) => void current().hooks.beforeAll.push(hook);
export const afterAll = (hook: Fn) => void current().hooks.afterAll.push(hook);

export interface RunReport {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly failures: readonly { readonly name: string; readonly error: string }[];
}

function describeError(error: unknown): string {
  if (error instanceof Error)
    return `${error.name}: ${error.message}${error.stack ? `\n${error.stack.split("\n").slice(1, 6).join("\n")}` : ""}`;
  return String(error);
}

/** Runs every registered case in registration order; `beforeAll` runs lazily before a scope's first case. */
export async function run(): Promise<RunReport> {
  let passed = 0;
  let skipped = 0;
  const failures: { name: string; error: string }[] = [];
  const started = new Set<Hooks>();
  for (const c of cases) {
    if (c.skip || c.fn === undefined) {
      skipped++;
      continue;
    }
    const teardown: Fn[] = [];
    const context: TestContext = {
      task: { name: c.name },
      expect: expectFn,
      skip: () => {
        throw new SkipSignal();
      },
      onTestFinished: (fn) => void teardown.push(fn),
    };
    try {
      for (const hooks of c.scopes) {
        if (started.has(hooks)) continue;
        started.add(hooks);
        for (const hook of hooks.beforeAll) await hook();
      }
      let threw = false;
      try {
        for (const hooks of c.scopes) {
          for (const hook of hooks.beforeEach) {
            // vitest: a function returned by beforeEach is that test's cleanup.
            const cleanup = await hook();
            if (typeof cleanup === "function") teardown.unshift(cleanup as Fn);
          }
        }
        try {
          await c.fn(context);
        } catch (error) {
          if (error instanceof SkipSignal || !c.fails) throw error;
          threw = true;
        }
      } finally {
        for (const fn of teardown) await fn();
        for (const hooks of [...c.scopes].reverse()) for (const hook of hooks.afterEach) await hook();
      }
      if (c.fails && !threw) throw new Error("expected this test to fail (it.fails), but it passed");
      passed++;
    } catch (error) {
      if (error instanceof SkipSignal) skipped++;
      else failures.push({ name: c.name, error: describeError(error) });
    }
  }
  for (const hooks of started) for (const hook of hooks.afterAll) await hook();
  return { passed, failed: failures.length, skipped, failures };
}
