import { InputPanel } from "./components/InputPanel.tsx";
import { useInput } from "./store/input.ts";

export function App() {
  const source = useInput((s) => s.source);
  return (
    <div className="app">
      <header className="app-header">
        <h1>Strata</h1>
        <span className="tagline">See exactly what your prompt assembles to.</span>
        <span className="source" data-testid="input-source">
          {source}
        </span>
      </header>
      <main>
        <InputPanel slot="current" />
      </main>
    </div>
  );
}
