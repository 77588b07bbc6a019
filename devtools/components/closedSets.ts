/**
 * Closed sets the devtools take from core. Label maps are typed `Labels<CoreUnion>`, and a list in
 * an order of the page's own is written with `allOf`, so a member core adds to a union fails to
 * compile here until the page has a label and a place for it.
 */

/** A label for every member of a core union; a missing or unknown key is a compile error. */
export type Labels<T extends string> = Readonly<Record<T, string>>;

type Missing<T, L extends readonly unknown[]> = Exclude<T, L[number]>;

/**
 * `list` as given, checked at compile time to hold every member of `T` and nothing else, e.g.
 * `allOf<InputAssemblyLayout>()(["cache_aware", "legacy"])`. For a union core exports without a
 * list, or one the page shows in an order of its own.
 */
export function allOf<T extends string>() {
  return <const L extends readonly [T, ...T[]]>(
    list: L & ([Missing<T, L>] extends [never] ? unknown : { readonly missing: Missing<T, L> }),
  ): L => list;
}

/** Narrows a string from the report (typed `string` there) to a member of a core list. */
export const isMember = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);
