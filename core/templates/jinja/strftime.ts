/**
 * `strftime_now(format)` for templates (Llama 3.x chat templates call it), formatted from the
 * injected `now` in UTC with fixed English names, so every runtime prints the same bytes.
 * The library's own version reads the ambient clock and the host locale; Strata never exposes it.
 */
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

function dayOfYear(date: Date): number {
  return Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

/**
 * Python-style `strftime` in UTC: %a %A %b %B %d %e %H %I %j %m %M %p %S %y %Y %Z %z %% .
 * Unknown directives are left as written.
 */
export function strftimeUtc(date: Date, format: string): string {
  return format.replace(/%[aAbBdeHIjmMpSyYZz%]/g, (token) => {
    const hours = date.getUTCHours();
    switch (token[1]) {
      case "a":
        return WEEKDAYS[date.getUTCDay()]!.slice(0, 3);
      case "A":
        return WEEKDAYS[date.getUTCDay()]!;
      case "b":
        return MONTHS[date.getUTCMonth()]!.slice(0, 3);
      case "B":
        return MONTHS[date.getUTCMonth()]!;
      case "d":
        return pad(date.getUTCDate());
      case "e":
        return String(date.getUTCDate()).padStart(2, " ");
      case "H":
        return pad(hours);
      case "I":
        return pad(hours % 12 === 0 ? 12 : hours % 12);
      case "j":
        return pad(dayOfYear(date), 3);
      case "m":
        return pad(date.getUTCMonth() + 1);
      case "M":
        return pad(date.getUTCMinutes());
      case "p":
        return hours < 12 ? "AM" : "PM";
      case "S":
        return pad(date.getUTCSeconds());
      case "y":
        return pad(date.getUTCFullYear() % 100);
      case "Y":
        return String(date.getUTCFullYear());
      case "Z":
        return "UTC";
      case "z":
        return "+0000";
      default:
        return "%";
    }
  });
}
