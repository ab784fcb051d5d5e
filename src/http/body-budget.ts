/**
 * The share of V8's heap limit (`heap_size_limit`, what --max-old-space-size bounds) that request
 * bodies may take while they are read and decided, unless BODY_BUDGET says otherwise. A body costs
 * about 4-5 times its size at its peak: the bytes (outside the heap), the decoded text and the
 * parsed payload, about twice the text (docs/decisions/0007-body-budget.md has the measurements).
 */
export const HEAP_SHARE = 1 / 8;

/** BODY_BUDGET when it is not set: the heap share of the heap limit of this process. */
export const budgetFromHeap = (heapLimitBytes: number): number => Math.floor(heapLimitBytes * HEAP_SHARE);

/** Bytes held for one request's body; released once its answer is out. */
export interface BodyReservation {
  /** Holds `bytes` more (a chunked body, as it arrives); false when the budget has no room. */
  grow(bytes: number): boolean;
  release(): void;
}

export interface BodyBudget {
  /** BODY_BUDGET in bytes. */
  readonly limit: number;
  /** A body of at most this many bytes may also use the room kept back from larger ones. */
  readonly smallBody: number;
  /** Bytes held by the bodies being read or decided now. */
  inFlight(): number;
  /** Holds `bytes` for a body about to be read, or undefined when they would pass the budget. */
  reserve(bytes: number): BodyReservation | undefined;
}

/**
 * Bounds the bytes of request bodies being read or decided at once (BODY_BUDGET), so that no load
 * can take the process past its heap: a body that does not fit is refused before it is read.
 * The last eighth of the budget is kept for small bodies (at most a sixteenth of that eighth
 * each: an ordinary preflight), so a flood of large bodies cannot crowd out a normal run's check.
 */
export function bodyBudget(limit: number): BodyBudget {
  const keptBack = Math.floor(limit / 8);
  const smallBody = Math.floor(keptBack / 16);
  let used = 0;
  const fits = (heldAfter: number, more: number) => used + more <= (heldAfter <= smallBody ? limit : limit - keptBack);
  return {
    limit,
    smallBody,
    inFlight: () => used,
    reserve(bytes) {
      if (!fits(bytes, bytes)) return undefined;
      used += bytes;
      let held = bytes;
      let released = false;
      return {
        grow(more) {
          if (released || !fits(held + more, more)) return false;
          used += more;
          held += more;
          return true;
        },
        release() {
          if (released) return;
          released = true;
          used -= held;
        },
      };
    },
  };
}
