/** One UTC hour: the span whose offset is checked at both ends (docs/decisions/0033-zone-offsets-by-the-hour.md). */
export const HOUR_MS = 3_600_000;

/** The last instant a Date holds (the hour that starts there has no later second to ask about). */
const LAST_MS = 8.64e15;

/** An hour of UTC over which a zone's offset is known constant. */
interface ConstantHour {
  from: number;
  offset: number;
}

/**
 * A zone's offset at any instant, asking `offsetOf` (the tz data, through Intl) as seldom as is
 * sound. Offsets are a function of the whole second; when the first and the last second of a UTC
 * hour have the same offset, the whole hour has it, since no zone's offset changes and changes back
 * within an hour (the closest two changes of the tz database are days apart: record 0033). Such an
 * hour is remembered, one per zone: what it holds is a fact of the tz data, the same whichever
 * decision asked first, so no answer depends on it. An hour with a change inside asks for each instant.
 */
export class HourOffsets {
  private known?: ConstantHour;

  constructor(private readonly offsetOf: (ms: number) => number) {}

  /** Minutes east of UTC at `ms`. */
  at(ms: number): number {
    const from = Math.floor(ms / HOUR_MS) * HOUR_MS;
    const known = this.known;
    if (known !== undefined && known.from === from) return known.offset;
    const first = this.offsetOf(from);
    if (first !== this.offsetOf(Math.min(from + HOUR_MS - 1000, LAST_MS))) return this.offsetOf(ms);
    this.known = { from, offset: first };
    return first;
  }
}
