// Every bench row module, in table order.
import * as assembly from "./assembly.mjs";
import * as bundle from "./bundle.mjs";
import * as compare from "./compare.mjs";
import * as composer from "./composer.mjs";
import * as devtools from "./devtools.mjs";
import * as eviction from "./eviction.mjs";
import * as hostile from "./hostile.mjs";
import * as inspect from "./inspect.mjs";
import * as monitor from "./monitor.mjs";
import * as session from "./session.mjs";
import * as templates from "./templates.mjs";
import * as tokens from "./tokens.mjs";

export const ROW_MODULES = [
  { id: "assembly", run: assembly.run, profiles: assembly.profiles },
  { id: "scaling", run: assembly.runScaling, profiles: {} }, // its scenarios live in assembly.profiles
  { id: "eviction", ...eviction },
  { id: "composer", ...composer },
  { id: "templates", ...templates },
  { id: "inspect", ...inspect },
  { id: "compare", ...compare },
  { id: "hostile", ...hostile },
  { id: "session", ...session },
  { id: "monitor", ...monitor },
  { id: "tokens", ...tokens },
  { id: "devtools", ...devtools },
  { id: "bundle", ...bundle },
];
