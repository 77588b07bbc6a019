import { useState } from "react";

interface Props {
  readonly label: string;
  readonly value: number | null;
  readonly onCommit: (value: number | null) => void;
  readonly testId: string;
  readonly placeholder?: string;
  readonly unit?: string;
}

/** A positive-integer field where empty means "none". Invalid text is flagged, never committed. */
export function NumberField({ label, value, onCommit, testId, placeholder = "none", unit }: Props) {
  const [text, setText] = useState(value === null ? "" : String(value));
  // Follow outside changes (a share link) by adjusting state during render, as React recommends.
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setText(value === null ? "" : String(value));
  }
  const trimmed = text.trim().replace(/[_,\s]/g, "");
  const valid = trimmed === "" || /^[1-9]\d{0,11}$/.test(trimmed);
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="text"
        inputMode="numeric"
        data-testid={testId}
        value={text}
        placeholder={placeholder}
        aria-invalid={!valid}
        title={valid ? undefined : "A whole number above 0, or empty for no limit"}
        size={9}
        onChange={(e) => {
          setText(e.target.value);
          const t = e.target.value.trim().replace(/[_,\s]/g, "");
          if (t === "") onCommit(null);
          else if (/^[1-9]\d{0,11}$/.test(t)) onCommit(Number(t));
        }}
      />
      {unit ? <span className="field-unit">{unit}</span> : null}
    </label>
  );
}
