import { type DragEvent, useEffect, useRef, useState } from "react";
import { type Slot, useInput } from "../store/input.ts";
import { useSampleIndex, useSampleText } from "../queries/samples.ts";
import { useParsedInput } from "./useParsedInput.ts";

/** Paste, drop, open a file or pick a bundled sample. The first sample loads on start. */
export function InputPanel({ slot = "current" as Slot }) {
  const text = useInput((s) => s[slot]);
  const setText = useInput((s) => s.setText);
  const samples = useSampleIndex();
  const [picked, setPicked] = useState<string | undefined>(undefined);
  // The start-up sample never overwrites text the user typed or dropped meanwhile.
  const [autoPicked, setAutoPicked] = useState(false);
  const pickedEntry = samples.data?.find((s) => s.id === picked);
  const sample = useSampleText(pickedEntry?.file);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const parsed = useParsedInput(text);

  // Load the first bundled sample on start so the page is never empty.
  useEffect(() => {
    if (slot === "current" && picked === undefined && samples.data?.[0] && useInput.getState().current === "") {
      setAutoPicked(true);
      setPicked(samples.data[0].id);
    }
  }, [samples.data, picked, slot]);
  useEffect(() => {
    if (sample.data === undefined || !pickedEntry) return;
    if (autoPicked && useInput.getState()[slot] !== "") return;
    setText(slot, sample.data, `sample: ${pickedEntry.title}`);
  }, [sample.data, pickedEntry, setText, slot, autoPicked]);

  const readFile = async (file: File) => setText(slot, await file.text(), `file: ${file.name}`);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void readFile(file);
  };

  return (
    <section
      className={`input-panel${dragging ? " dragging" : ""}`}
      data-testid={`input-panel-${slot}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="input-toolbar">
        <label>
          Sample{" "}
          <select data-testid="sample-picker" value={picked ?? ""} onChange={(e) => {
              setAutoPicked(false);
              setPicked(e.target.value || undefined);
            }}>
            <option value="">—</option>
            {samples.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <button type="button" data-testid="open-file" onClick={() => fileInput.current?.click()}>
          Open file…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="file-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void readFile(file);
          }}
        />
        {samples.error ? <span className="error">Samples unavailable: {String(samples.error.message)}</span> : null}
      </div>
      <textarea
        data-testid="request-editor"
        aria-label="Request JSON"
        spellCheck={false}
        value={text}
        placeholder="Paste a request (Strata, OpenAI, Anthropic or Gemini JSON), drop a file, or pick a sample."
        onChange={(e) => setText(slot, e.target.value)}
      />
      <div className="input-status" data-testid="input-status">
        {parsed.kind === "empty" ? "No input yet." : null}
        {parsed.kind === "ok" ? `Valid JSON · ${parsed.bytes.toLocaleString("en-US")} bytes` : null}
        {parsed.kind === "error" ? (
          <span className="error" data-testid="json-error">
            {parsed.message}
          </span>
        ) : null}
      </div>
    </section>
  );
}
