/**
 * One real-looking request per wire format, in each converter's canonical form (so
 * wire → normalized → wire gives the same bytes). Written to public/samples/ by
 * e2e/samples/write-samples.mjs.
 */

export const openaiChatSample = {
  model: "gpt-4.1-mini",
  temperature: 0.2,
  max_completion_tokens: 800,
  prompt_cache_key: "northwind-support-v3",
  tools: [
    {
      type: "function",
      function: {
        name: "lookup_order",
        description: "Look up an order by its id and return status, carrier and estimated delivery date.",
        parameters: {
          type: "object",
          properties: { order_id: { type: "string", description: "Order id, e.g. A-10293" } },
          required: ["order_id"],
          additionalProperties: false,
        },
        strict: true,
      },
    },
    {
      type: "function",
      function: {
        name: "update_address",
        description: "Change the delivery address of an order that has not shipped yet.",
        parameters: {
          type: "object",
          properties: {
            order_id: { type: "string" },
            address: { type: "string", description: "Full postal address on one line" },
          },
          required: ["order_id", "address"],
          additionalProperties: false,
        },
        strict: true,
      },
    },
  ],
  messages: [
    {
      role: "developer",
      content:
        "You are the support assistant for Northwind Outfitters. Answer in the customer's language, keep replies under 120 words, and never promise refunds: hand refund requests to a human agent.",
    },
    {
      role: "user",
      content: [
        { type: "text", text: "Where is my order A-10293? I attached the confirmation." },
        { type: "image_url", image_url: { url: "https://cdn.example.com/receipts/a-10293.png", detail: "low" } },
      ],
    },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_7Hk2Qm",
          type: "function",
          function: { name: "lookup_order", arguments: '{"order_id":"A-10293"}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "call_7Hk2Qm", content: '{"status":"shipped","carrier":"UPS","eta":"2026-12-02"}' },
    { role: "assistant", content: "Your order A-10293 shipped with UPS and should arrive on December 2." },
    { role: "user", content: "Can I still change the delivery address?" },
  ],
};

export const openaiResponsesSample = {
  model: "gpt-5-mini",
  reasoning: { effort: "low", summary: "auto" },
  store: false,
  include: ["reasoning.encrypted_content"],
  prompt_cache_key: "trip-planner",
  instructions:
    "You plan city trips. Use get_weather before recommending outdoor activities, and answer in short bullet lists.",
  tools: [
    {
      type: "function",
      name: "get_weather",
      description: "Current weather and a 3-day forecast for a city.",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, units: { type: "string", enum: ["metric", "imperial"] } },
        required: ["city", "units"],
        additionalProperties: false,
      },
      strict: true,
    },
    { type: "web_search" },
  ],
  input: [
    { role: "user", content: "I'm in Lisbon this weekend. What should I do on Saturday?" },
    {
      type: "reasoning",
      id: "rs_68a1f0c2e4b8",
      summary: [{ type: "summary_text", text: "Check the weather first, then suggest activities." }],
      encrypted_content: "gAAAAABo8k2xQ0v1Zt3lTq9bN4uXhS7pYcR2mWdJ6eK0aF5iL8oV3gU1yE9sD4tH",
    },
    {
      type: "function_call",
      call_id: "call_Qx81",
      name: "get_weather",
      arguments: '{"city":"Lisbon","units":"metric"}',
      id: "fc_68a1f0c3",
      status: "completed",
    },
    {
      type: "function_call_output",
      call_id: "call_Qx81",
      output: '{"today":{"c":19,"sky":"sunny"},"saturday":{"c":21,"sky":"clear"}}',
    },
    {
      type: "message",
      role: "assistant",
      content: [
        {
          type: "output_text",
          text: "- Morning: Belém Tower and pastéis de nata\n- Afternoon: tram 28 through Alfama\n- Sunset: Miradouro da Senhora do Monte",
        },
      ],
      id: "msg_68a1f0c5",
      status: "completed",
    },
    { role: "user", content: "And if it rains on Sunday?" },
  ],
};

export const anthropicSample = {
  model: "claude-sonnet-4-5",
  max_tokens: 2048,
  thinking: { type: "enabled", budget_tokens: 1024 },
  tools: [
    {
      name: "search_docs",
      description: "Search the product documentation and return the three most relevant passages.",
      input_schema: {
        type: "object",
        properties: {
          query: { type: "string", description: "Search terms" },
          product: { type: "string", enum: ["api", "console", "sdk"] },
        },
        required: ["query"],
      },
      cache_control: { type: "ephemeral" },
    },
  ],
  system: [
    {
      type: "text",
      text: "You are the documentation assistant for Acme Cloud. Cite the passage you used as [doc:<id>]. If the docs do not cover a question, say so instead of guessing.",
      cache_control: { type: "ephemeral" },
    },
  ],
  messages: [
    { role: "user", content: "How do I rotate an API key without downtime?" },
    {
      role: "assistant",
      content: [
        {
          type: "thinking",
          thinking: "The user wants zero-downtime key rotation. Search the API docs for key rotation.",
          signature: "EqQBCkYIBRgCKkDz3c1kQm9TzRj0aW5nU2lnbmF0dXJlRXhhbXBsZQ==",
        },
        {
          type: "tool_use",
          id: "toolu_01D7xT",
          name: "search_docs",
          input: { query: "rotate API key", product: "api" },
        },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01D7xT",
          content:
            "[doc:keys-42] Create a second key, deploy it to every client, then revoke the first key. Both keys work until the old one is revoked.",
        },
      ],
    },
    {
      role: "assistant",
      content:
        "Create a second key, roll it out to every client, then revoke the old key; both stay valid until you revoke [doc:keys-42].",
    },
    {
      role: "user",
      content: [{ type: "text", text: "Does revoking take effect immediately?", cache_control: { type: "ephemeral" } }],
    },
  ],
};

export const geminiSample = {
  model: "gemini-2.5-flash",
  generationConfig: { temperature: 0.4, maxOutputTokens: 1024 },
  toolConfig: { functionCallingConfig: { mode: "AUTO" } },
  tools: [
    {
      functionDeclarations: [
        {
          name: "find_flights",
          description: "Find direct flights between two airports on a date.",
          parameters: {
            type: "OBJECT",
            properties: {
              from: { type: "STRING" },
              to: { type: "STRING" },
              date: { type: "STRING", description: "YYYY-MM-DD" },
            },
            required: ["from", "to", "date"],
          },
        },
      ],
    },
    { googleSearch: {} },
  ],
  systemInstruction: {
    parts: [{ text: "You are a travel assistant. Prefer direct flights and quote prices in EUR." }],
  },
  contents: [
    { role: "user", parts: [{ text: "Find me a flight from Lisbon to Berlin on 12 December." }] },
    {
      role: "model",
      parts: [
        {
          functionCall: { name: "find_flights", args: { from: "LIS", to: "BER", date: "2026-12-12" } },
          thoughtSignature: "CiQB0e2Kb7xWm3pLq9sT4vN8rY2cJ5hF1gD6kA0eU3iO7wZ=",
        },
      ],
    },
    {
      role: "user",
      parts: [
        {
          functionResponse: {
            name: "find_flights",
            response: {
              flights: [
                { dep: "09:40", arr: "14:05", price_eur: 139 },
                { dep: "17:15", arr: "21:40", price_eur: 112 },
              ],
            },
          },
        },
      ],
    },
    { role: "model", parts: [{ text: "Two direct flights: 09:40 → 14:05 for €139, or 17:15 → 21:40 for €112." }] },
    { role: "user", parts: [{ text: "Book the 09:40 one." }] },
  ],
};

/**
 * An Anthropic request whose current user turn is `[tool_result, text]`: one message that splits
 * into two parts (this turn's tool result, then the input). Not a bundled sample.
 */
export const anthropicSplitTurn = {
  model: "claude-sonnet-4-5",
  max_tokens: 100,
  messages: [
    { role: "user", content: "Weather in Oslo?" },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: { city: "Oslo" } }] },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "4°C" },
        { type: "text", text: "And tomorrow?" },
      ],
    },
  ],
};
