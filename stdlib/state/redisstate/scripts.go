package redisstate

import (
	"sync"

	"github.com/redis/go-redis/v9"
)

// The Lua scripts Redis runs for the calls that read and write in one
// step. A script runs whole, with no other command between its own, so
// no two processes can both see room for one more event. Each is made
// at its first use: making one hashes it, and every hookhost process,
// most of which never speak to Redis, would pay for that at start.

// incrScript adds ARGV[1] to the integer under KEYS[1]; an absent key
// starts at ARGV[1] with a ttl of ARGV[2] milliseconds (0: none), an
// existing one keeps its expiry (INCRBY leaves it). It returns
// {"ok", sum} with the sum as text (a Lua number would lose precision
// past 2^53), or {"window"} for a rate window, {"overflow", current} or
// {"type", current} when the value is not an integer INCRBY can add to.
var incrScript = sync.OnceValue(func() *redis.Script {
	return redis.NewScript(`
local key, by, ttl = KEYS[1], ARGV[1], tonumber(ARGV[2])
if redis.call('EXISTS', key) == 0 then
  if ttl > 0 then
    redis.call('SET', key, by, 'PX', ttl)
  else
    redis.call('SET', key, by)
  end
  return {'ok', by}
end
if redis.call('TYPE', key)['ok'] ~= 'string' then
  return {'window'}
end
local r = redis.pcall('INCRBY', key, by)
if type(r) == 'table' and r['err'] then
  local v = redis.call('GET', key)
  if string.match(v, '^%-?%d+$') then
    return {'overflow', v}
  end
  return {'type', v}
end
return {'ok', redis.call('GET', key)}
`)
})

// rateScript is the sliding log of the memory backend on a sorted set:
// KEYS[1] holds the microsecond timestamps (scores, and as text the
// members) of the events counted, ARGV[1] is the limit and ARGV[2] the
// window in microseconds. Time is the server's, so that processes on
// different machines agree on it; a timestamp is made later than the
// newest by a microsecond when needed, so members stay unique and the
// log sorted. It returns {allowed (0 or 1), remaining, reset in
// microseconds}, or {-1} when the key holds a value.
var rateScript = sync.OnceValue(func() *redis.Script {
	return redis.NewScript(`
local key, limit, window = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local kind = redis.call('TYPE', key)['ok']
if kind ~= 'none' and kind ~= 'zset' then
  return {-1}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local n = redis.call('ZCARD', key)
if n > limit then
  redis.call('ZREMRANGEBYRANK', key, 0, n - limit - 1)
  n = limit
end
local allowed = 0
if n < limit then
  local at = now
  if n > 0 then
    local newest = tonumber(redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2])
    if newest >= at then
      at = newest + 1
    end
  end
  redis.call('ZADD', key, at, string.format('%d', at))
  n = n + 1
  allowed = 1
end
local newest = tonumber(redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2])
local oldest = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2])
redis.call('PEXPIRE', key, math.max(1, math.ceil((newest + window - now) / 1000)))
local reset = oldest + window - now
if reset < 0 then
  reset = 0
end
return {allowed, limit - n, reset}
`)
})
