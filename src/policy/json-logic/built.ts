import type { Data } from './null-prototype';

/** Per steps array of one decision: the derived condition data by name (`time` also by zone) and the finished data objects by DataNeeds key. */
export interface Built {
  derived: Map<string, Data>;
  data: Map<string, Data>;
}
