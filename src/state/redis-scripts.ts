/**
 * Lua scripts that apply one event atomically in Redis: two replicas handling events at once
 * cannot interleave inside a script, so nothing is lost or counted twice. Keys are built from the
 * prefix inside the scripts (a single Redis, not Redis Cluster). Times compare as exact time keys
 * (20-digit text, event-time.ts); `ms` scores are for windows only.
 */

/**
 * ARGV: prefix, dedupe key, dedupe ttl ms, 'engaged'|'disengaged', changedAt key, changedAt text,
 * by, key of the engagement a disengagement ends ('' if not sent).
 * Mirrors nextKillswitch() in killswitch-state.ts.
 */
export const APPLY_KILLSWITCH = `
local p = ARGV[1]
if not redis.call('SET', p .. 'seen:' .. ARGV[2], '1', 'NX', 'PX', ARGV[3]) then return 'duplicate' end
local ks = p .. 'killswitch'
local changed = redis.call('HGET', ks, 'changedAt') or ''
local at, ends = ARGV[5], ARGV[8]
if ARGV[4] == 'disengaged' then
  if ends == '' or ends > at then return 'unmatched' end
  if at <= changed then return 'stale' end
  local engagedAt = redis.call('HGET', ks, 'engagedAt')
  if engagedAt and ends < engagedAt then return 'stale' end
  if redis.call('HGET', ks, 'engaged') == '1' and ends ~= engagedAt then return 'unmatched' end
  redis.call('HSET', ks, 'engaged', '0', 'changedAt', at)
  return 'applied'
end
if at <= changed then return 'stale' end
redis.call('HSET', ks, 'engaged', '1', 'changedAt', at, 'engagedAt', at, 'engagedAtText', ARGV[6], 'engagedBy', ARGV[7])
return 'applied'
`;

/**
 * ARGV: prefix, dedupe key, dedupe ttl ms, 'started'|'ended', execution id, time key, time ms,
 * end state, record ttl ms, running cutoff ms, history cutoff ms, history ttl ms, scopes...
 * Mirrors MemoryStateStore.applyExecution().
 */
export const APPLY_EXECUTION = `
local p = ARGV[1]
if not redis.call('SET', p .. 'seen:' .. ARGV[2], '1', 'NX', 'PX', ARGV[3]) then return 'duplicate' end
local id, ms = ARGV[5], ARGV[7]
local rec = p .. 'exec:' .. id
local status = redis.call('HGET', rec, 'status')
local scopes = {}
local function track(kind, scope, member, cutoff)
  local key = p .. kind .. ':' .. scope
  redis.call('ZADD', key, ms, member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. cutoff)
  redis.call('PEXPIRE', key, ARGV[12])
end
if ARGV[4] == 'started' then
  if status then return 'stale' end
  for i = 13, #ARGV do scopes[#scopes + 1] = ARGV[i] end
  redis.call('HSET', rec, 'status', 'running', 'time', ARGV[6], 'scopes', table.concat(scopes, '\\n'))
  redis.call('PEXPIRE', rec, ARGV[9])
  for _, scope in ipairs(scopes) do
    track('running', scope, id, ARGV[10])
    track('started', scope, id, ARGV[11])
  end
  return 'applied'
end
if status == 'ended' then return 'stale' end
if status == 'running' then
  for scope in string.gmatch(redis.call('HGET', rec, 'scopes'), '[^\\n]+') do scopes[#scopes + 1] = scope end
else
  for i = 13, #ARGV do scopes[#scopes + 1] = ARGV[i] end
end
redis.call('HSET', rec, 'status', 'ended', 'time', ARGV[6], 'state', ARGV[8])
redis.call('PEXPIRE', rec, ARGV[9])
for _, scope in ipairs(scopes) do
  redis.call('ZREM', p .. 'running:' .. scope, id)
  track('ended', scope, id .. '|' .. ARGV[8], ARGV[11])
end
return 'applied'
`;
