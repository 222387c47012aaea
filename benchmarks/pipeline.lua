-- HTTP/1.1 pipelining for wrk: every write sends DEPTH requests back to back (default 16).
--   wrk -t1 -c256 -s pipeline.lua http://127.0.0.1:PORT/plaintext -- 16
-- wrk counts each response, so Requests/sec is responses per second.
init = function(args)
   local depth = tonumber(args[1]) or 16
   local r = {}
   for i = 1, depth do
      r[i] = wrk.format()
   end
   req = table.concat(r)
end

request = function()
   return req
end
