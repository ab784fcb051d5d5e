"use strict";
/**
 * Lua scripts that apply one event atomically in Redis: two replicas handling events at once
 * cannot interleave inside a script, so nothing is lost or counted twice. Every key a script
 * touches is passed in KEYS and shares one hash tag (redis-keys.ts), so Redis Cluster checks them
 * all before the script runs: during a resharding a script runs on a node holding all of them, or
 * not at all (TRYAGAIN/ASK), never half. Times compare as exact time keys (20-digit text,
 * event-time.ts); `ms` scores are for windows only.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.TAKE_EXCEPTION_USES = exports.APPLY_EXECUTION = exports.APPLY_KILLSWITCH = void 0;
/**
 * KEYS: seen, killswitch. ARGV: dedupe ttl ms, 'engaged'|'disengaged', changedAt key, changedAt
 * text, by, key of the engagement a disengagement ends ('' if not sent).
 * Mirrors nextKillswitch() in killswitch-state.ts.
 */
exports.APPLY_KILLSWITCH = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'duplicate' end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
local ks = KEYS[2]
local changed = redis.call('HGET', ks, 'changedAt') or ''
local at, ends = ARGV[3], ARGV[6]
if ARGV[2] == 'disengaged' then
  if ends == '' or ends > at then return 'unmatched' end
  if at <= changed then return 'stale' end
  local engagedAt = redis.call('HGET', ks, 'engagedAt')
  if engagedAt and ends < engagedAt then return 'stale' end
  if redis.call('HGET', ks, 'engaged') == '1' and ends ~= engagedAt then return 'unmatched' end
  redis.call('HSET', ks, 'engaged', '0', 'changedAt', at)
  return 'applied'
end
if at <= changed then return 'stale' end
redis.call('HSET', ks, 'engaged', '1', 'changedAt', at, 'engagedAt', at, 'engagedAtText', ARGV[4], 'engagedBy', ARGV[5])
return 'applied'
`;
/**
 * KEYS: seen, execution record, then per scope: running, started, ended.
 * ARGV: dedupe ttl ms, 'started'|'ended', execution id, time key, time ms, end state, record ttl
 * ms, running cutoff ms, history cutoff ms, history ttl ms, expected record status ('' | running |
 * ended), expected record scopes (newline-separated), then the scopes of KEYS in order.
 * The caller chose the keys from what it expected the record to be; if the record is otherwise
 * (another replica changed it meanwhile) the script changes nothing and answers 'retry'.
 * Mirrors MemoryStateStore.applyExecution().
 */
exports.APPLY_EXECUTION = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'duplicate' end
local rec = KEYS[2]
local status = redis.call('HGET', rec, 'status') or ''
if status ~= ARGV[11] or (status == 'running' and redis.call('HGET', rec, 'scopes') ~= ARGV[12]) then return 'retry' end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
local id, ms = ARGV[3], ARGV[5]
local function track(key, member, cutoff)
  redis.call('ZADD', key, ms, member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. cutoff)
  redis.call('PEXPIRE', key, ARGV[10])
end
if ARGV[2] == 'started' then
  if status ~= '' then return 'stale' end
  local scopes = {}
  for i = 13, #ARGV do scopes[#scopes + 1] = ARGV[i] end
  redis.call('HSET', rec, 'status', 'running', 'time', ARGV[4], 'scopes', table.concat(scopes, '\\n'))
  redis.call('PEXPIRE', rec, ARGV[7])
  for i = 13, #ARGV do
    local k = 3 + 3 * (i - 13)
    track(KEYS[k], id, ARGV[8])
    track(KEYS[k + 1], id, ARGV[9])
  end
  return 'applied'
end
if status == 'ended' then return 'stale' end
redis.call('HSET', rec, 'status', 'ended', 'time', ARGV[4], 'state', ARGV[6])
redis.call('PEXPIRE', rec, ARGV[7])
for i = 13, #ARGV do
  local k = 3 + 3 * (i - 13)
  redis.call('ZREM', KEYS[k], id)
  track(KEYS[k + 2], id .. '|' .. ARGV[6], ARGV[9])
end
return 'applied'
`;
/**
 * KEYS: the use counts of the exceptions. ARGV: per key, its maxUses. Takes one use of each and
 * answers 'taken', or none when any is at its maximum: then answers the counts, an array reply in
 * the order of KEYS. A count has no TTL (ExceptionUse: an exception's expires can be extended);
 * PERSIST removes one an earlier version set.
 * Mirrors MemoryStateStore.takeExceptionUses().
 */
exports.TAKE_EXCEPTION_USES = `
local counts = {}
local full = false
for i, key in ipairs(KEYS) do
  counts[i] = tonumber(redis.call('GET', key) or '0')
  if counts[i] >= tonumber(ARGV[i]) then full = true end
end
if full then return counts end
for i, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('PERSIST', key)
end
return 'taken'
`;
//# sourceMappingURL=redis-scripts.js.map