/**
 * A four-turn Anthropic conversation as consecutive requests:
 *   turn 2 appends to turn 1 (cache hit),
 *   turn 3 changes a timestamp in the system prompt (system_changed: only the tools stay cached),
 *   turn 4 sends the same tools in another order (tool_order_changed: nothing is reused).
 * Breakpoints: the last tool, the system prompt, and the last user block of each turn.
 */

const POLICY = [
  "You are Harbor, the operations assistant for Brightline Logistics, a freight forwarder that moves containers between Rotterdam, Hamburg, Antwerp and Felixstowe.",
  "Your users are dispatchers and customer-service agents. They ask about shipment status, vessel schedules, customs holds, demurrage and detention charges, and booking changes. Answer precisely and briefly; dispatchers read your replies on a second screen while on the phone.",
  "## Sources of truth\nShipment data comes only from the tools. Never invent container numbers, bill-of-lading numbers, vessel names, ETAs or charges. If a tool returns nothing, say so and suggest the next check (for example: verify the container number's check digit, or search by booking reference instead).",
  "## Container numbers\nContainer numbers follow ISO 6346: four letters (owner code and equipment category, the last letter is U for freight containers), six digits and one check digit, e.g. MSKU 907032 3. Accept them with or without spaces and in any case. If the check digit does not match, tell the user which digit you expected before calling any tool.",
  "## Customs holds\nA container under customs hold cannot be released. Explain the hold type (documentary check, physical inspection, or scanning), what the customer must provide, and the typical duration at that port: Rotterdam 1-2 working days for documentary checks, Hamburg 2-3, Antwerp 1-3, Felixstowe 2-4. Never advise anyone to move a container under hold.",
  "## Demurrage and detention\nDemurrage accrues while a full container stays in the terminal after its free days; detention accrues while the customer keeps the container outside the terminal after its free days. Quote the free days and daily rates from get_charges only. When a customer disputes a charge, collect the container number, the dates they dispute and the reason, then create a ticket with open_ticket; do not promise waivers.",
  "## Booking changes\nBookings can be changed until the vessel's documentation cut-off. After the cut-off, a change requires a correction request with a fee of EUR 85 per bill of lading. Always state which cut-off applies and how much time is left, in hours, using the port's local time.",
  "## Tone and format\nUse short paragraphs or compact bullet lists. Put container numbers, dates and amounts in bold. Use 24-hour times with the time zone (CET/CEST for Rotterdam, Hamburg and Antwerp; GMT/BST for Felixstowe). Write dates as 3 Dec 2026. Do not greet the user at the start of every reply.",
  "## Escalation\nEscalate to the duty manager with open_ticket (priority high) when: a reefer container reports a temperature alarm, a dangerous-goods declaration is missing or inconsistent, a customer threatens legal action, or a vessel omits a port call. Tell the user you escalated and give the ticket number.",
  "## Privacy\nShare shipment details only with users whose account is linked to the booking party, the shipper or the consignee. The tools enforce this; if a tool answers 'forbidden', explain that the user's account is not linked to this shipment and how to request access.",
].join("\n\n");

/** The system prompt with the time a dispatcher session started: a volatile value early in the prompt. */
const system = (time: string) => `${POLICY}\n\nSession started: 2026-11-29 ${time} CET. Dispatcher desk: Rotterdam.`;

const TOOLS = {
  track_container: {
    name: "track_container",
    description:
      "Current status, location and event history of one container: gate-in/out, load/discharge, customs status, and the vessel and voyage it is booked on.",
    input_schema: {
      type: "object",
      properties: {
        container_number: { type: "string", description: "ISO 6346 container number, e.g. MSKU9070323" },
        include_history: { type: "boolean", description: "Include the full event history (default false)" },
      },
      required: ["container_number"],
    },
  },
  vessel_schedule: {
    name: "vessel_schedule",
    description:
      "Arrival and departure times, berth and documentation cut-offs of a vessel voyage at the ports Brightline serves.",
    input_schema: {
      type: "object",
      properties: {
        vessel: { type: "string", description: "Vessel name or IMO number" },
        voyage: { type: "string", description: "Voyage number, e.g. 448W" },
        port: { type: "string", enum: ["NLRTM", "DEHAM", "BEANR", "GBFXT"] },
      },
      required: ["vessel"],
    },
  },
  get_charges: {
    name: "get_charges",
    description: "Free days, accrued demurrage and detention, and daily rates for a container, in EUR, as of now.",
    input_schema: {
      type: "object",
      properties: {
        container_number: { type: "string" },
        as_of: { type: "string", description: "ISO date; default today" },
      },
      required: ["container_number"],
    },
  },
  open_ticket: {
    name: "open_ticket",
    description: "Open a service ticket for disputes, escalations and booking corrections. Returns the ticket number.",
    input_schema: {
      type: "object",
      properties: {
        subject: { type: "string" },
        priority: { type: "string", enum: ["low", "normal", "high"] },
        container_number: { type: "string" },
        details: {
          type: "string",
          description: "What happened, what the customer wants, and what you already checked",
        },
        booking_reference: { type: "string", description: "Booking reference, if the ticket concerns one booking" },
        customer_reference: {
          type: "string",
          description: "The customer's own reference (purchase order or claim number), if they gave one",
        },
      },
      required: ["subject", "priority", "details"],
    },
  },
  customs_status: {
    name: "customs_status",
    description:
      "Customs status of a container or bill of lading at the port of discharge: cleared, documentary check, physical inspection or scanning, with the hold reason, the customs office and the documents still missing.",
    input_schema: {
      type: "object",
      properties: {
        container_number: { type: "string" },
        bill_of_lading: { type: "string", description: "Bill-of-lading number, e.g. BRLRTM2611873" },
        port: { type: "string", enum: ["NLRTM", "DEHAM", "BEANR", "GBFXT"] },
      },
      required: ["port"],
    },
  },
  change_booking: {
    name: "change_booking",
    description:
      "Request a change to a booking before the documentation cut-off: consignee, delivery address, vessel or voyage, or container count. After the cut-off this files a correction request (EUR 85 per bill of lading) instead.",
    input_schema: {
      type: "object",
      properties: {
        booking_reference: { type: "string", description: "Booking reference, e.g. BRL-2026-11873" },
        change: { type: "string", enum: ["consignee", "delivery_address", "vessel", "container_count"] },
        new_value: { type: "string", description: "The new consignee, address, vessel/voyage or count" },
        reason: { type: "string" },
      },
      required: ["booking_reference", "change", "new_value"],
    },
  },
  list_bookings: {
    name: "list_bookings",
    description:
      "Bookings of a customer account, newest first, with status (draft, confirmed, loaded, delivered, cancelled), vessel, port pair and container count. Use it when the user knows the customer but not the booking reference.",
    input_schema: {
      type: "object",
      properties: {
        customer: { type: "string", description: "Customer account name or number" },
        status: { type: "string", enum: ["draft", "confirmed", "loaded", "delivered", "cancelled"] },
        limit: { type: "integer", minimum: 1, maximum: 50, description: "How many bookings to return (default 10)" },
      },
      required: ["customer"],
    },
  },
  notify_customer: {
    name: "notify_customer",
    description:
      "Send the customer's registered contact an e-mail about a shipment: arrival notice, customs hold, charge warning or booking change confirmation. Returns the message id. Only use it when the dispatcher asks you to.",
    input_schema: {
      type: "object",
      properties: {
        booking_reference: { type: "string" },
        template: { type: "string", enum: ["arrival_notice", "customs_hold", "charge_warning", "booking_change"] },
        note: { type: "string", description: "Optional personal note added above the template text" },
      },
      required: ["booking_reference", "template"],
    },
  },
};

type ToolName = keyof typeof TOOLS;
const ORDER: readonly ToolName[] = [
  "track_container",
  "vessel_schedule",
  "customs_status",
  "get_charges",
  "change_booking",
  "list_bookings",
  "notify_customer",
  "open_ticket",
];
/** Turn 4: the host built its tool list from a map and two tools swapped places. */
const REORDERED: readonly ToolName[] = [
  "track_container",
  "vessel_schedule",
  "customs_status",
  "change_booking",
  "get_charges",
  "list_bookings",
  "notify_customer",
  "open_ticket",
];

const tools = (order: readonly ToolName[]) =>
  order.map((name, i) =>
    i === order.length - 1 ? { ...TOOLS[name], cache_control: { type: "ephemeral" } } : TOOLS[name],
  );

const EXCHANGES = [
  {
    user: "Where is container MSKU 907032 3 right now?",
    assistant:
      "**MSKU 907032 3** was discharged from *Maersk Kensington* (voyage 448W) at Rotterdam APM Terminals on **28 Nov 2026, 14:20 CET**. It is in the stack and cleared by customs.",
  },
  {
    user: "How much demurrage has it accrued?",
    assistant:
      "It has **2 free days left** (free time ends **1 Dec 2026, 23:59 CET**). No demurrage has accrued yet; after that the rate is **EUR 95 per day**.",
  },
  {
    user: "The customer says the free days should be 7, not 5. What do I do?",
    assistant:
      "Collect the dispute details and open a ticket: the contract terms are checked by the billing team. I can open it now if you confirm the customer's booking reference.",
  },
  { user: "Booking reference is BRL-2026-11873. Please open it." },
];

type Block = { type: "text"; text: string; cache_control?: { type: "ephemeral" } };
type Turn = { role: "user" | "assistant"; content: string | Block[] };

function messages(turn: number): Turn[] {
  const out: Turn[] = [];
  for (let i = 0; i < turn; i++) {
    const ex = EXCHANGES[i]!;
    const last = i === turn - 1;
    out.push(
      last
        ? { role: "user", content: [{ type: "text", text: ex.user, cache_control: { type: "ephemeral" } }] }
        : { role: "user", content: ex.user },
    );
    if (!last && ex.assistant) out.push({ role: "assistant", content: ex.assistant });
  }
  return out;
}

function request(turn: number, time: string, order: readonly ToolName[]) {
  return {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    tools: tools(order),
    system: [{ type: "text", text: system(time), cache_control: { type: "ephemeral" } }],
    messages: messages(turn),
  };
}

/** Turns 1–4 in order. */
export const conversationTurns = [
  request(1, "09:14", ORDER),
  request(2, "09:14", ORDER),
  request(3, "09:21", ORDER),
  request(4, "09:21", REORDERED),
] as const;
