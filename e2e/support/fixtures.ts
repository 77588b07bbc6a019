// Requests the specs build themselves, for states no bundled sample shows.

/** An OpenAI Chat request whose assistant tool call is never answered: history issues pinned to messages. */
export const HISTORY_ISSUES = JSON.stringify(
  {
    model: "gpt-4.1",
    messages: [
      { role: "system", content: "You answer weather questions in one sentence." },
      { role: "user", content: "What's the weather in Oslo right now?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
      },
      { role: "user", content: "Hello? Are you there?" },
      { role: "tool", tool_call_id: "call_9", content: '{"temp_c": 4}' },
    ],
  },
  null,
  2,
);

/**
 * An OpenAI Chat request long enough for Anthropic's 1,024-token cache minimum and without any
 * cache_control of its own: breakpoints in its Anthropic export can only come from the exporter.
 */
export function longOpenAIRequest(): string {
  const rules = Array.from(
    { length: 60 },
    (_, i) =>
      `Rule ${i + 1}: answer questions about order ${1000 + i} with the carrier, the status and the estimated delivery date, and never guess.`,
  );
  return JSON.stringify(
    {
      model: "gpt-4.1",
      tools: [
        {
          type: "function",
          function: {
            name: "lookup_order",
            description: "Look up an order by id.",
            parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
          },
        },
        {
          type: "function",
          function: {
            name: "update_address",
            description: "Change the delivery address.",
            parameters: {
              type: "object",
              properties: { order_id: { type: "string" }, address: { type: "string" } },
              required: ["order_id", "address"],
            },
          },
        },
      ],
      messages: [
        { role: "system", content: `You are the Northwind support assistant.\n${rules.join("\n")}` },
        { role: "user", content: "Where is order 1007?" },
        { role: "assistant", content: "Order 1007 shipped yesterday with DHL and should arrive on Friday." },
        { role: "user", content: "Can I still change the address?" },
      ],
    },
    null,
    2,
  );
}

/** A Strata assembly request with a template block whose source and arguments carry `payload`. */
export function strataTemplateRequest(payload: string): string {
  return JSON.stringify(
    {
      model: { provider: "anthropic", model: "claude-sonnet-4-5" },
      template: {
        template: `Hello {{ name }}. ${payload}\n{{ note }}`,
        args: { name: payload, note: payload },
      },
      instructions: [payload],
      input: payload,
    },
    null,
    2,
  );
}
