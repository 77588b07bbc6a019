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
expectFn["extend"] = (matchers: object) => (chai.expect as unknown as { extend: (e: unknown, m: object) => void }).extend(expectFn, matchers);
setState(
  { assertionCalls: 0, isExpectingAssertions: false, isExpectingAssertionsError: null, expectedAssertionsNumber: null, expectedAssertionsNumberErrorGen: null },
  expectFn as never,
);
(globalThis as Record<PropertyKey, unknown>)[GLOBAL_EXPECT] = expectFn;

export const expect = expectFn;
export const vi = { fn, spyOn };

type Fn = () => unknown;
interface Hooks {
  beforeEach: Fn[];
  afterEach: Fn[];
  beforeAll: Fn[];
  afterAll: Fn[];
}
interface Case {
  readonly name: string;
  readonly fn: Fn | undefined;
  readonly skip: boolean;
  readonly scopes: readonly Hooks[];
}

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
    if (token === "%s") return typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
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

function register(name: string, body: Fn | undefined, skip: boolean): void {
  const names = scopeStack.map((s) => s.name).filter(Boolean);
  cases.push({
    name: [...names, name].join(" > "),
    fn: body,
    skip: skip || body === undefined || scopeStack.some((s) => s.skip),
    scopes: scopeStack.map((s) => s.hooks),
  });
}

function suite(name: string, body: Fn, skip: boolean): void {
  scopeStack.push({ name, hooks: { beforeEach: [], afterEach: [], beforeAll: [], afterAll: [] }, skip });
  try {
    const result = body();
    if (result instanceof Promise) throw new Error(`describe("${name}") must be synchronous`);
  } finally {
    scopeStack.pop();
  }
}

type EachRunner<A extends unknown[]> = (name: string, body: (...args: A) => unknown) => void;
function makeEach(define: (name: string, body: Fn) => void) {
  return <T>(table: readonly T[]): EachRunner<T extends readonly unknown[] ? [...T] : [T]> =>
    (name, body) => {
      table.forEach((row, index) => {
        const args = (Array.isArray(row) ? row : [row]) as never[];
        define(formatName(name, row, index), () => (body as (...a: unknown[]) => unknown)(...args));
      });
    };
}

type TestApi = ((name: string, body?: Fn, timeout?: number) => void) & {
  skip: (name: string, body?: Fn) => void;
  only: (name: string, body?: Fn) => void;
  todo: (name: string) => void;
  each: ReturnType<typeof makeEach>;
  skipIf: (condition: unknown) => (name: string, body?: Fn) => void;
  runIf: (condition: unknown) => (name: string, body?: Fn) => void;
};

export const it: TestApi = Object.assign((name: string, body?: Fn) => register(name, body, false), {
  skip: (name: string, body?: Fn) => register(name, body, true),
  only: (name: string, body?: Fn) => register(name, body, false),
  todo: (name: string) => register(name, undefined, true),
  each: makeEach((name, body) => register(name, body, false)),
  skipIf: (condition: unknown) => (name: string, body?: Fn) => register(name, body, Boolean(condition)),
  runIf: (condition: unknown) => (name: string, body?: Fn) => register(name, body, !condition),
});
export const test = it;

export const describe = Object.assign((name: string, body: Fn) => suite(name, body, false), {
  skip: (name: string, body: Fn) => suite(name, body, true),
  only: (name: string, body: Fn) => suite(name, body, false),
  each: makeEach((name, body) => suite(name, body, false)),
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
  if (error instanceof Error) return `${error.name}: ${error.message}${error.stack ? `\n${error.stack.split("\n").slice(1, 6).join("\n")}` : ""}`;
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
    try {
      for (const hooks of c.scopes) {
        if (started.has(hooks)) continue;
        started.add(hooks);
        for (const hook of hooks.beforeAll) await hook();
      }
      for (const hooks of c.scopes) for (const hook of hooks.beforeEach) await hook();
      try {
        await c.fn();
      } finally {
        for (const hooks of [...c.scopes].reverse()) for (const hook of hooks.afterEach) await hook();
      }
      passed++;
    } catch (error) {
      failures.push({ name: c.name, error: describeError(error) });
    }
  }
  for (const hooks of started) for (const hook of hooks.afterAll) await hook();
  return { passed, failed: failures.length, skipped, failures };
}
