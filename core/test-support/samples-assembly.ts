/**
 * A Strata `AssemblyRequest` with a system-prompt template, tier sections whose budget drops
 * two of them, a context budget that evicts the oldest history, and a tool exchange in history.
 */
export const assemblySample = {
  model: { provider: "anthropic", model: "claude-sonnet-4-5", capabilities: { tools: true } },
  inputLayout: "cache_aware",
  sessionId: "sess_7f3a9c",
  template: {
    template:
      "You are {{ assistant.name }}, the release engineer for the {{ project }} repository.\n" +
      "Current time: {{ system.current_datetime }}.\n" +
      "{% if strict %}Refuse to deploy on Fridays after 15:00 UTC.{% endif %}",
    args: { project: "acme/payments" },
    defaults: { project: "acme/web", strict: true, assistant: { name: "Shipwright" } },
    now: "2026-11-29T09:14:00Z",
  },
  sections: [
    {
      id: "core.safety",
      tier: "core",
      content:
        "Never run destructive commands (drop, truncate, force-push) without an explicit confirmation from the user in this conversation.",
    },
    {
      id: "core.tools",
      tier: "core",
      content: "Use the tools to read logs and pipeline state; never guess a job's outcome.",
    },
    {
      id: "active.recent-errors",
      tier: "active",
      content:
        "Recent tool errors:\n- get_pipeline: 503 from CI API at 09:02 (retried, succeeded)\n- read_log: log for job 8812 truncated at 2 MB",
    },
    {
      id: "active.runbook",
      tier: "active",
      content:
        "Deploy runbook: 1) pipeline green on main, 2) migrations reviewed, 3) canary at 5% for 15 minutes with error rate under 0.5%, 4) full rollout, 5) announce in #releases with the version and the changelog link.",
    },
    {
      id: "informational.style",
      tier: "informational",
      content: "Style: answer in short bullet points; put commands in code blocks; link pipeline runs by id.",
    },
    {
      id: "informational.glossary",
      tier: "informational",
      content:
        "Glossary: canary = a small share of traffic on the new version; bake time = how long a canary runs before promotion; rollback = redeploying the previous release tag.",
    },
  ],
  tierBudget: { depth: 0, totalBudget: 520, activeBudgetFraction: 0.95 },
  summaries: [
    {
      id: "sum-1",
      text: "Earlier today the user cut release v2.14.0 and asked to deploy it to staging; staging passed.",
    },
  ],
  history: [
    { role: "user", content: "Cut v2.14.1 with the hotfix for the refund rounding bug." },
    { role: "assistant", content: "Tagged v2.14.1 from main at 3f9c2e1. The pipeline (run 5531) is running." },
    { role: "user", content: "Deploy it to production when it's green." },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Checking the pipeline first." },
        { type: "tool_call", id: "call_pl_1", name: "get_pipeline", arguments: { run: 5531 } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool_result",
          toolCallId: "call_pl_1",
          name: "get_pipeline",
          result: { run: 5531, status: "failed", failed_job: 8812, stage: "deploy-canary" },
        },
      ],
    },
    { role: "assistant", content: "The pipeline failed in deploy-canary (job 8812). I have not deployed anything." },
  ],
  attachments: [
    {
      name: "job-8812.log",
      text: "09:11:58 canary: rolling out v2.14.1 to 5% of pods\n09:12:40 canary: error rate 2.7% (threshold 0.5%)\n09:12:41 canary: ERROR PaymentsRefundTest.rounding expected 10.05 got 10.04\n09:12:41 canary: aborting rollout, reverting to v2.14.0",
    },
  ],
  tools: [
    {
      name: "get_pipeline",
      description: "Status of a CI pipeline run and its jobs.",
      inputSchema: { type: "object", properties: { run: { type: "integer" } }, required: ["run"] },
    },
    {
      name: "read_log",
      description: "The last lines of a CI job's log.",
      inputSchema: {
        type: "object",
        properties: { job: { type: "integer" }, lines: { type: "integer", maximum: 500 } },
        required: ["job"],
      },
    },
  ],
  contextBudget: { maxInputTokens: 400, reportOmissions: true },
  input: "Why did the canary fail, and is it safe to retry?",
};
