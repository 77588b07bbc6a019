import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { initialInputState, useInput } from "../store/input.ts";
import { DEFAULT_SETTINGS, useUi } from "../store/settings.ts";

/** Fresh stores, so tests never see each other's input or settings. */
export function resetStores(): void {
  useInput.setState(initialInputState());
  useUi.setState({ ...DEFAULT_SETTINGS, view: "overview", theme: "light", tierBudget: null, tierAssignments: {} });
}

/** Renders inside a fresh react-query client (views that ask for a second inspection need one). */
export function renderWithClient(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  return { client, ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>) };
}

/** True when no element in `root` came from markup in user data (pasted text must stay text). */
export function hasNoInjectedElements(root: HTMLElement): boolean {
  return root.querySelector("img, script, iframe, object, embed, [onerror], [onload]") === null;
}
