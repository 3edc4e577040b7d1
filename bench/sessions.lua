-- wrk script: ~300-byte POSTs to /v1/responses carrying "user" over 1000 sessions.
local counter = 0
local pad = string.rep("x", 200)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

request = function()
  counter = counter + 1
  local body = '{"model":"insika-1","user":"session-' .. (counter % 1000) ..
      '","input":"hello","pad":"' .. pad .. '"}'
  return wrk.format("POST", "/v1/responses", nil, body)
end
