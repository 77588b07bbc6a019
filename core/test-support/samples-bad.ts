/**
 * Malformed requests: each must give a typed `RequestFormatError` with a code and a path,
 * never a crash or a hang. `text` is the exact file content written to public/samples/bad/.
 * (The 50 MB string case is generated in the test, not committed.)
 */
export interface BadSample {
  readonly id: string;
  readonly title: string;
  readonly file: string;
  readonly text: string;
  readonly expect: { readonly code: string; readonly path: string; readonly issueCode?: string };
}

const deep = `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"metadata":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;

export const badSamples: readonly BadSample[] = [
  {
    id: "truncated",
    title: "Truncated JSON (the paste stopped mid-message)",
    file: "bad/truncated.json",
    text: '{\n  "model": "claude-sonnet-4-5",\n  "max_tokens": 1024,\n  "messages": [\n    { "role": "user", "content": "Summarize the attached contr',
    expect: { code: "json_syntax", path: "messages[0].content" },
  },
  {
    id: "wrong-types",
    title: "Wrong types (content is a number, max_tokens a string)",
    file: "bad/wrong-types.json",
    text: JSON.stringify(
      {
        model: "claude-sonnet-4-5",
        max_tokens: "1024",
        system: "Be brief.",
        messages: [{ role: "user", content: 42 }],
      },
      null,
      2,
    ),
    expect: { code: "no_format_matched", path: "max_tokens", issueCode: "invalid_type" },
  },
  {
    id: "unknown-role",
    title: "Unknown role",
    file: "bad/unknown-role.json",
    text: JSON.stringify(
      {
        model: "gpt-4.1",
        messages: [
          { role: "system", content: "You are terse." },
          { role: "narrator", content: "Once upon a time" },
        ],
      },
      null,
      2,
    ),
    expect: { code: "no_format_matched", path: "messages[1].role", issueCode: "invalid_value" },
  },
  {
    // A block of an unknown type is kept verbatim (with a warning); a known one missing a field
    // Anthropic requires is rejected.
    id: "tool-use-without-id",
    title: "A tool_use block without its id",
    file: "bad/tool-use-without-id.json",
    text: JSON.stringify(
      {
        model: "claude-sonnet-4-5",
        max_tokens: 256,
        messages: [
          { role: "user", content: "What is the weather?" },
          { role: "assistant", content: [{ type: "tool_use", name: "weather", input: {} }] },
        ],
      },
      null,
      2,
    ),
    expect: { code: "no_format_matched", path: "messages[1].content[0].id", issueCode: "missing_field" },
  },
  {
    id: "deep-nesting",
    title: "10,000-deep nesting",
    file: "bad/deep-nesting.json",
    text: deep,
    expect: { code: "json_too_deep", path: "metadata[0][0][0][0][0][0][0][0][0][0][0]…(1000 levels deep)" },
  },
  {
    id: "lone-surrogate",
    title: "A lone UTF-16 surrogate in a message",
    file: "bad/lone-surrogate.json",
    text: '{"model":"gpt-4o","messages":[{"role":"user","content":"broken emoji: \\ud83d here"}]}',
    expect: { code: "invalid_json_data", path: "messages[0].content", issueCode: "lone_surrogate" },
  },
  {
    id: "bom-wrong-type",
    title: "A byte-order mark, then a request with a wrong type (the BOM itself is accepted)",
    file: "bad/bom-wrong-type.json",
    text: `\uFEFF${JSON.stringify({ contents: [{ role: "user", parts: [{ text: 7 }] }] })}`,
    expect: { code: "no_format_matched", path: "contents[0].parts[0].text", issueCode: "invalid_type" },
  },
  {
    id: "bom-inside",
    title: "A byte-order mark in the middle of the JSON",
    file: "bad/bom-inside.json",
    text: '{"model":"gpt-4o",\uFEFF"messages":[]}',
    expect: { code: "json_syntax", path: "" },
  },
  {
    id: "not-an-object",
    title: "An array instead of a request object",
    file: "bad/not-an-object.json",
    text: '[{"role":"user","content":"hi"}]',
    expect: { code: "invalid_request", path: "" },
  },
  {
    id: "empty",
    title: "Empty input",
    file: "bad/empty.json",
    text: "  \n",
    expect: { code: "json_empty", path: "" },
  },
];
