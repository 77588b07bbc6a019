// Production monitoring: a fetch that watches the prompt cache of live traffic, hash-only.
export { createMonitoredFetch } from "./fetch.ts";
export { createMemoryStore } from "./store.ts";
export type { MemoryStore } from "./store.ts";
export { MAX_THREADS } from "./analyze.ts";
export { MONITOR_EVENT_VERSION, MONITOR_STATE_VERSION } from "./types.ts";
export type {
  MonitorEvent,
  MonitorOptions,
  MonitorPrediction,
  MonitorStore,
  MonitoredFetch,
  PartitionRecord,
  ThreadKeyInput,
  ThreadRecord,
  ThreadSource,
} from "./types.ts";
export type { EventFingerprint } from "../session/fingerprints.ts";
