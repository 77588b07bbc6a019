/**
 * The `system.*` prompt arguments: the injected clock formatted in UTC with fixed
 * English names — no locale, no time zone of the host, same bytes in every runtime.
 */
import { InvalidInputError } from "../util/errors.ts";
import { MONTHS, WEEKDAYS } from "../templates/jinja/strftime.ts";
import { isDate } from "../util/plain-object.ts";

export type SystemArguments = {
  /** `YYYY-MM-DD` */
  readonly current_date: string;
  /** `HH:MM:SS` (24-hour) */
  readonly current_time: string;
  /** RFC 3339, seconds precision, `Z`: `2024-05-06T07:08:09Z` */
  readonly current_datetime: string;
  /** English weekday name: `Monday` */
  readonly day_of_week: string;
  /** RFC 1123 as Go's `time.RFC1123` prints UTC: `Mon, 06 May 2024 07:08:09 UTC` */
  readonly date_rfc1123: string;
  /** Whole seconds since the Unix epoch (floored). */
  readonly date_unix: number;
  /** Milliseconds since the Unix epoch. */
  readonly date_unix_ms: number;
};

/**
 * RFC 3339 with a zone (`Z` or `±HH:MM`): the subset of date strings ECMAScript parses
 * identically everywhere. A date-time without a zone is read in the host's time zone, and
 * other formats are implementation-defined, so neither may reach `Date.parse`.
 */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

export function checkedDate(value: unknown, field: string): Date {
  if (!isDate(value) || Number.isNaN(value.getTime())) throw new InvalidInputError(field, "must be a valid Date.");
  const year = value.getUTCFullYear();
  if (year < 0 || year > 9999) throw new InvalidInputError(field, `must be between years 0000 and 9999, got ${year}.`);
  return value;
}

/** RFC 3339 in UTC with seconds precision, as Go's `time.RFC3339` prints a UTC time. */
export function rfc3339(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}Z`
  );
}

export function systemArguments(now: Date): SystemArguments {
  const date = checkedDate(now, "now");
  const ymd = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const hms = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  const weekday = WEEKDAYS[date.getUTCDay()]!;
  const ms = date.getTime();
  return {
    current_date: ymd,
    current_time: hms,
    current_datetime: `${ymd}T${hms}Z`,
    day_of_week: weekday,
    date_rfc1123:
      `${weekday.slice(0, 3)}, ${pad(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]!.slice(0, 3)} ` +
      `${pad(date.getUTCFullYear(), 4)} ${hms} UTC`,
    date_unix: Math.floor(ms / 1000),
    date_unix_ms: ms,
  };
}

/** Whole seconds as Go's `time.Duration.String()` prints them: `0s`, `45s`, `2m5s`, `1h0m0s`. */
export function goDuration(milliseconds: number): string {
  const total = Math.max(0, Math.floor(milliseconds / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}
